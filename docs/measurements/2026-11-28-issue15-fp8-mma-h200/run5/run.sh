# run 5: gate/up on the FP8 mma with x in two classes (exact), in the gate/up -> SiLU x up -> down chain
rm -rf /tmp/o; mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/packed/fp8mma_cls.xz > /tmp/fp8mma_cls; chmod +x /tmp/fp8mma_cls
/tmp/fp8mma_cls chaingu > /tmp/o/chaingu.txt 2>&1; cat /tmp/o/chaingu.txt
tar -C /tmp -czf $OUT/s5.tgz o
