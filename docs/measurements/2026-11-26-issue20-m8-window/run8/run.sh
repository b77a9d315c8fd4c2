# call 37 (H100): issue 20, the 8-row rolling tiled kernels under the kept rule (up to 2 blocks an SM, at least 14
# steps a warp) against 3b6d42e (old-cuda.jar) in one call: gemv-bench at 2/4/8 rows, Llama-3-8B batch 8 steps, the
# tiled ITs
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call37.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant old dist/packed/old-cuda.jar
B="--formats INT4,NVFP4,MXFP4 --rows 2,4,8 --shape 4096x14336 --shape 8192x28672 --no-cublas --no-layer"
for r in 1 2; do
timeout 100 bash -c "source dist/packed/common.sh; roofline gemv-bench $B --markdown /tmp/o/gemv-new$r.md" > /tmp/o/gemv-new$r.txt 2>&1
timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline gemv-bench $B --markdown /tmp/o/gemv-old$r.md" > /tmp/o/gemv-old$r.txt 2>&1
done
save gemv
paste <(grep -E "^(8192|4096)x" /tmp/o/gemv-new1.txt | awk '{printf "%s %s %s %s\n",$1,$2,$3,$4}') <(grep -E "^(8192|4096)x" /tmp/o/gemv-old1.txt | awk '{printf "%s\n",$4}') <(grep -E "^(8192|4096)x" /tmp/o/gemv-new2.txt | awk '{printf "%s\n",$4}') <(grep -E "^(8192|4096)x" /tmp/o/gemv-old2.txt | awk '{printf "%s\n",$4}')
timeout 90 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights INT4,NVFP4,MXFP4 --batch 8 --context 1024" > /tmp/o/decode-new.txt 2>&1
timeout 90 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline decode llama-3-8b --weights INT4,NVFP4,MXFP4 --batch 8 --context 1024" > /tmp/o/decode-old.txt 2>&1
save decode; grep -a "us/step" /tmp/o/decode-new.txt /tmp/o/decode-old.txt | cut -c1-110
timeout 150 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[Tt]iled.*'" 2>&1 | strip_ansi > /tmp/o/it-tiled.txt
save it; grep -E "tests (successful|failed|aborted)" /tmp/o/it-tiled.txt; grep -a -B2 -A8 "✘" /tmp/o/it-tiled.txt | head -30
