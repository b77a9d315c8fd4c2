# run 5 (H200): the second ring (x copied row-contiguously, partial sums pushed, one cluster barrier), 1 or 2 tiles a warp
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; cp /tmp/o/* $OUT/ 2>/dev/null; }
xz -dc dist/probe-ring/tsk.xz > /tmp/tsk; chmod +x /tmp/tsk
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
for sh in 8192x8192 28672x8192 8192x28672; do timeout 80 /tmp/tsk "" $sh 16 >> /tmp/o/tsk5.txt 2>&1; echo $sh rc=$?; done
save tsk
for sh in 6144x4096 4096x4096 28672x4096 4096x14336; do timeout 60 /tmp/tsk INT4 $sh 16 >> /tmp/o/tsk5-llama.txt 2>&1; echo $sh rc=$?; done
save llama
