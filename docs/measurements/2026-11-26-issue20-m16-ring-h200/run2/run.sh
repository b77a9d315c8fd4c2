# run 2 (H200): the ring's streaming alone (no step computed) against the ring and the shipped tiled m16, INT4; ncu
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; cp /tmp/o/* $OUT/ 2>/dev/null; }
xz -dc dist/probe-ring/tsk.xz > /tmp/tsk; chmod +x /tmp/tsk
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
for sh in 8192x8192 28672x8192; do timeout 60 /tmp/tsk INT4 $sh 16 >> /tmp/o/tsk2.txt 2>&1; echo $sh rc=$?; done
save tsk
for k in ring_int4_m16_ks8_s4_b3 gemv_int4_f16_m16_tiled ringstream_int4_ks8_s4_b3; do timeout 60 ncu --kernel-name $k --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats /tmp/tsk INT4 8192x8192 16 > /tmp/o/ncu-$k.txt 2>&1; echo ncu $k rc=$?; done
save ncu
