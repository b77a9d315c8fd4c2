# call 135: issue 20, the 16-row kernels with the grid's last groups of tiles split over clusters of 2 (tsk "tail"
# variants: k2 = the groups past the last whole wave, none = a cluster launch splitting none, k2 +1 = one wave more)
# against the shipped 16-row kernels, 3 formats at 16 rows over grids of 1 to 6.8 waves
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call135.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
mkdir -p /tmp/p && xz -dc dist/probe/tsk.xz > /tmp/p/tsk && chmod +x /tmp/p/tsk
for s in ${SHAPES:-28672x8192 25344x8192 28672x4096 14336x4096 57344x8192 11264x4096 10240x8192 8192x8192}; do for f in INT4 NVFP4 MXFP4; do
  timeout 60 /tmp/p/tsk $f $s ${ROWS:-16} > /tmp/o/tsk-$f-$s.txt 2>&1; done; save tsk-$s; done
grep -h "tiled m16\|tail\|all checks\|FAIL" /tmp/o/tsk-*.txt
