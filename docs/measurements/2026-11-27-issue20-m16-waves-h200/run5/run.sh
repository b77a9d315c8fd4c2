# call 138: issue 20, the 16-row kernels with more blocks an SM or more steps in flight (tsk "occ" variants: b3 = two
# tiles capped at 3 blocks an SM, b3 c1 = the same with one chain of mma, t1 b4 = one tile at 4 blocks an SM, t1 u2 b3
# = one tile, 2 steps a trip, 3 blocks an SM, u2 = two tiles, 2 steps a trip) against the shipped 16-row kernels,
# 3 formats at 16 rows, the issue's three shapes and four of Llama-3's
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call138.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
mkdir -p /tmp/p && xz -dc dist/probe/tsk.xz > /tmp/p/tsk && chmod +x /tmp/p/tsk
for s in ${SHAPES:-8192x8192 28672x8192 8192x28672 4096x14336 6144x4096 28672x4096 4096x4096}; do for f in INT4 NVFP4 MXFP4; do
  timeout 60 /tmp/p/tsk $f $s ${ROWS:-16} > /tmp/o/tsk-$f-$s.txt 2>&1; done; save tsk-$s; done
grep -h "tiled m16\|occ\|all checks\|FAIL" /tmp/o/tsk-*.txt
