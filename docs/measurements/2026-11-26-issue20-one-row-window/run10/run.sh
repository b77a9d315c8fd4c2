# call 54: issue 20, tsk: two tiles a block at 8 rows, four at 16, against the shipped kernels; 8 and 16 rows (and 2,
# 4 at the three large shapes)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call54.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for f in INT4 NVFP4 MXFP4; do
  for sh in 28672x4096 4096x14336 4096x4096 6144x4096 8192x8192 28672x8192 8192x28672; do
    for m in 8 16 4; do timeout 60 /tmp/tsk $f $sh $m > /tmp/o/tsk-$f-$sh-m$m.txt 2>&1; done
  done
done
save tsk
grep -h -E "FAIL|FAILURE" /tmp/o/tsk-*.txt | head; grep -h -c "all checks passed" /tmp/o/tsk-*.txt | paste -sd' '
