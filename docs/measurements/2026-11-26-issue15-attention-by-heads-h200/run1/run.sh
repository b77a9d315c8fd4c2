# call 1 (H200): the refactored launchers' ITs; the decode sweep calibrated at batch 1 x 1k with attention timed alone
# at 8/16/32 sequences and the products' row ratios net of launches, checked on batch 8/16/32 x 1k/8k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call1.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 170 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.kernels.MoeKernelsIT --select-class dev.roofline.cuda.kernels.NativeFp4GemvIT --select-class dev.roofline.cuda.bench.GemvBenchmarkIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted\|tests skipped" /tmp/o/it.txt; grep -a -B2 -A8 "✘" /tmp/o/it.txt | head -40
timeout 400 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8,16,32 --context 1024,8192 --calibrate /tmp/o/calibration.json --format markdown" > /tmp/o/decode-sweep.md 2>&1
save sweep; grep -a "held out\|calibration" /tmp/o/decode-sweep.md | grep -a "^|" | head -40; grep -a "^calibration:\|^efficien\|^fixed" /tmp/o/decode-sweep.md
