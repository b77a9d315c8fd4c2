nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/device.txt; cat $OUT/device.txt; dist/probe/fp8mma > $OUT/probe.txt 2>&1; cat $OUT/probe.txt
