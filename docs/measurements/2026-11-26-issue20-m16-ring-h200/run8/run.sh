# run 8 (H200): the shipped tiled kernels with two mma chains a fragment (ch2) against themselves, 1/8/16 rows, 7 shapes
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; cp /tmp/o/* $OUT/ 2>/dev/null; }
xz -dc dist/probe-ring/tsk.xz > /tmp/tsk; chmod +x /tmp/tsk
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
for m in 1 8 16; do for sh in 8192x8192 28672x8192 8192x28672; do timeout 80 /tmp/tsk "" $sh $m >> /tmp/o/tsk7.txt 2>&1; echo $sh $m rc=$?; done; done
save tsk
for m in 1 16; do for sh in 6144x4096 4096x4096 28672x4096 4096x14336; do timeout 60 /tmp/tsk "" $sh $m >> /tmp/o/tsk7-llama.txt 2>&1; echo $sh rc=$?; done; done
save llama
