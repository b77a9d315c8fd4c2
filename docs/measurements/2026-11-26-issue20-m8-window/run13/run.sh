# call 42: issue 20, the final build (INT4's and MXFP4's 8-row windows with plain bounds, up to 2 blocks an SM, at least
# 8 steps a warp): GemvKernelsIT's tiled cases, DenseDecoderIT, then gemv-bench at 2/4/8 rows and Llama-3-8B batch 8
# steps against 3b6d42e (old-cuda.jar) in one call
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call42.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 150 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[Tt]iled.*'" 2>&1 | strip_ansi > /tmp/o/it-tiled.txt
save it-tiled; grep -E "tests (successful|failed|aborted)" /tmp/o/it-tiled.txt; grep -a -B2 -A8 "✘" /tmp/o/it-tiled.txt | head -20
timeout 120 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.decode.DenseDecoderIT" 2>&1 | strip_ansi > /tmp/o/it-decoder.txt
save it-decoder; grep -E "tests (successful|failed|aborted)" /tmp/o/it-decoder.txt; grep -a -B2 -A8 "✘" /tmp/o/it-decoder.txt | head -20
variant old dist/packed/old-cuda.jar
B="--formats INT4,NVFP4,MXFP4 --rows 2,4,8 --shape 4096x4096 --shape 4096x8192 --shape 2096x8576 --shape 4096x14336 --shape 8192x28672 --no-cublas --no-layer"
timeout 100 bash -c "source dist/packed/common.sh; roofline gemv-bench $B --markdown /tmp/o/gemv-new.md" > /tmp/o/gemv-new.txt 2>&1
timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline gemv-bench $B --markdown /tmp/o/gemv-old.md" > /tmp/o/gemv-old.txt 2>&1
save gemv
paste <(grep -E "^(8192|4096|2096)x" /tmp/o/gemv-new.txt | awk '{printf "%s %s %s %s\n",$1,$2,$3,$4}') <(grep -E "^(8192|4096|2096)x" /tmp/o/gemv-old.txt | awk '{printf "%s\n",$4}') | awk '{printf "%s %s %s new %s old %s %.3fx\n",$1,$2,$3,$4,$5,$5/$4}'
timeout 90 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights INT4,MXFP4 --batch 8 --context 1024" > /tmp/o/decode-new.txt 2>&1
timeout 90 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline decode llama-3-8b --weights INT4,MXFP4 --batch 8 --context 1024" > /tmp/o/decode-old.txt 2>&1
save decode; grep -a "us/step" /tmp/o/decode-new.txt /tmp/o/decode-old.txt | cut -c1-110
