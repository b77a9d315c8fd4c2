# call 36: issue 20, the 8-row rolling tiled kernels (gemv_<format>_f16_m8_tiled_r3): the tiled ITs, gemv-bench at 2/4/8
# rows at four shapes and Llama-3-8B decode steps at batch 8, this build against 3b6d42e (old-cuda.jar) in one call
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call36.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant old dist/packed/old-cuda.jar
B="--formats INT4,NVFP4,MXFP4 --rows 2,4,8 --shape 8192x28672 --shape 4096x14336 --shape 8192x8192 --shape 28672x8192 --no-cublas --no-layer"
timeout 120 bash -c "source dist/packed/common.sh; roofline gemv-bench $B --markdown /tmp/o/gemv-new.md" > /tmp/o/gemv-new.txt 2>&1
save new
timeout 120 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline gemv-bench $B --markdown /tmp/o/gemv-old.md" > /tmp/o/gemv-old.txt 2>&1
save old
paste <(grep -E "^(8192|28672|4096)x" /tmp/o/gemv-new.txt | awk '{printf "%s %s %s %s\n",$1,$2,$3,$4}') <(grep -E "^(8192|28672|4096)x" /tmp/o/gemv-old.txt | awk '{printf "%s\n",$4}') | head -60
timeout 90 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights INT4,NVFP4,MXFP4 --batch 8 --context 1024" > /tmp/o/decode-new.txt 2>&1
timeout 90 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline decode llama-3-8b --weights INT4,NVFP4,MXFP4 --batch 8 --context 1024" > /tmp/o/decode-old.txt 2>&1
save decode; grep -a "us/step" /tmp/o/decode-new.txt /tmp/o/decode-old.txt | cut -c1-160; tail -3 /tmp/o/decode-new.txt
timeout 200 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[Tt]iled.*'" 2>&1 | strip_ansi > /tmp/o/it-tiled.txt
save it; grep -E "tests (successful|failed|aborted)" /tmp/o/it-tiled.txt; grep -a -B2 -A8 "✘" /tmp/o/it-tiled.txt | head -30
