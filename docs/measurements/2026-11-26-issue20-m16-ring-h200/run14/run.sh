# issue 20 (H200): NVFP4's and MXFP4's 16-row tiled kernels computing both B fragments at every M (ab), one or two
# mma chains, at their own occupancy or held to 2 blocks an SM by unused shared memory, against the shipped kernels
# (tsk built from 698101c with ab.diff), 16 rows, seven shapes
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; cp /tmp/o/* $OUT/ 2>/dev/null; }
xz -dc dist/probe-ab/tsk.xz > /tmp/tsk; chmod +x /tmp/tsk
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
for f in NVFP4 MXFP4; do for sh in 8192x8192 28672x8192 8192x28672 6144x4096 4096x4096 28672x4096 4096x14336; do
  timeout 30 /tmp/tsk $f $sh 16 >> /tmp/o/tsk-ab.txt 2>&1; echo $f $sh rc=$?; done; done
save tsk
grep -E "tiled m16|ab " /tmp/o/tsk-ab.txt | cut -c1-90; grep -c "all checks passed" /tmp/o/tsk-ab.txt
