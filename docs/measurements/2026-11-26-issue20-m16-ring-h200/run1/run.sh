# run 1 (H200): the first ring (x copied in the fragments' order, partial sums pulled through distributed shared memory
# between two cluster barriers) at 1/8/12/16 rows, default shapes, then the Llama-3-8B shapes at 16 rows
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; cp /tmp/o/* $OUT/ 2>/dev/null; }
xz -dc dist/probe-ring/tsk.xz > /tmp/tsk; chmod +x /tmp/tsk
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
timeout 260 /tmp/tsk > /tmp/o/tsk.txt 2>&1; echo rc=$?
save tsk
for sh in 6144x4096 4096x4096 28672x4096 4096x14336; do timeout 60 /tmp/tsk "" $sh 16 >> /tmp/o/tsk-llama.txt 2>&1; echo $sh rc=$?; done
save llama
