# run 3 (H200): the ring's streaming alone with three access patterns (p0: 8 tiles x 1 KiB a slot, p1: one tile's
# 8 KiB, p2: each block's own contiguous bytes)
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; cp /tmp/o/* $OUT/ 2>/dev/null; }
xz -dc dist/probe-ring/tsk.xz > /tmp/tsk; chmod +x /tmp/tsk
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
for sh in 8192x8192 28672x8192; do timeout 60 /tmp/tsk INT4 $sh 16 >> /tmp/o/tsk3.txt 2>&1; echo $sh rc=$?; timeout 60 /tmp/tsk INT4 $sh 1 >> /tmp/o/tsk3.txt 2>&1; done
save tsk
