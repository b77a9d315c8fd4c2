# the one-wave FP8 gate/up probe: alone, then in the gate/up -> SiLU x up -> down chain
rm -rf /tmp/o; mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/packed/wave.xz > /tmp/wave; chmod +x /tmp/wave
/tmp/wave > /tmp/o/alone.txt 2>&1; cat /tmp/o/alone.txt
/tmp/wave chain > /tmp/o/chain.txt 2>&1; tail -16 /tmp/o/chain.txt
tar -C /tmp -czf $OUT/s3.tgz o
