# call 136: issue 20, the 16-row kernels with the groups of tiles past the last whole wave run by the split kernel (tsk
# "tail k2 after": in stream order after the plain kernel, "tail k2 beside": on a second stream) against the shipped
# 16-row kernels, 3 formats at 16 rows over grids of 1 to 6.8 waves
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call136.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
mkdir -p /tmp/p && xz -dc dist/probe/tsk.xz > /tmp/p/tsk && chmod +x /tmp/p/tsk
for s in ${SHAPES:-28672x8192 25344x8192 28672x4096 14336x4096 57344x8192 11264x4096 10240x8192 8192x8192}; do for f in INT4 NVFP4 MXFP4; do
  timeout 60 /tmp/p/tsk $f $s ${ROWS:-16} > /tmp/o/tsk-$f-$s.txt 2>&1; done; save tsk-$s; done
grep -h "tiled m16\|tail\|all checks\|FAIL" /tmp/o/tsk-*.txt
