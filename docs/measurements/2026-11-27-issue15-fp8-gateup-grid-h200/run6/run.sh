# call 167: issue 15 probe: FP8 one-row GEMV block shapes and the stream-K kernel (probe_fp8.cu), four shapes
mkdir -p $OUT/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > $OUT/o/device.txt; cat $OUT/o/device.txt
timeout 200 dist/probe/fp8v > $OUT/o/probe.txt 2>&1; echo "probe rc $?"
cat $OUT/o/probe.txt
