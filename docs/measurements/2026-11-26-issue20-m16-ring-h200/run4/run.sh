# run 4 (H200): the ring's streaming alone: in a cluster or not, with x's copies or without, 3/4/6 slots; ncu
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; cp /tmp/o/* $OUT/ 2>/dev/null; }
xz -dc dist/probe-ring/tsk.xz > /tmp/tsk; chmod +x /tmp/tsk
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
for sh in 8192x8192 28672x8192; do timeout 60 /tmp/tsk INT4 $sh 16 >> /tmp/o/tsk4.txt 2>&1; echo $sh rc=$?; done
save tsk
timeout 60 ncu --kernel-name ringstream_nocl_p2 --launch-count 1 --set full /tmp/tsk INT4 8192x8192 16 > /tmp/o/ncu-stream.txt 2>&1; echo ncu rc=$?
save ncu
