# call 4 (H200): the tiled 4-bit GEMV (gemv_tiled.cu, TiledLayout): ITs, then gemv-bench of the 4-bit formats at
# M = 1..32 with this build and with the build before it (dist/packed/old-cuda.jar) in the same call
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call4.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 230 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.kernels.MoeKernelsIT --select-class dev.roofline.cuda.decode.MoeDecoderIT --select-class dev.roofline.cuda.decode.CheckpointWeightsIT --select-class dev.roofline.cuda.bench.GemvBenchmarkIT --select-class dev.roofline.cuda.kernels.NativeFp4GemvIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted\|tests skipped" /tmp/o/it.txt; grep -a -B2 -A10 "✘" /tmp/o/it.txt | head -60
timeout 150 bash -c "source dist/packed/common.sh; roofline gemv-bench --formats INT4,NVFP4,MXFP4 --rows 1,2,4,8,16,32 --no-layer --markdown /tmp/o/gemv-tiled.md" > /tmp/o/gemv-tiled.txt 2>&1
save tiled; grep -E "^(8192|28672)x" /tmp/o/gemv-tiled.txt | cut -c1-170 | head -60
variant old dist/packed/old-cuda.jar
timeout 150 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline gemv-bench --formats INT4,NVFP4,MXFP4 --rows 1,2,4,8,16,32 --no-layer --markdown /tmp/o/gemv-old.md" > /tmp/o/gemv-old.txt 2>&1
save old; grep -E "^(8192|28672)x" /tmp/o/gemv-old.txt | cut -c1-170 | head -60
