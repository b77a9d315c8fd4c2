# call 49: issue 20, tsk: x loaded just in time at 8 and 16 rows (jit), more unrolled one-row kernels (MXFP4, INT4)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call49.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for f in INT4 NVFP4 MXFP4; do
  for sh in 8192x8192 28672x8192 8192x28672 4096x14336 4096x4096 28672x4096; do
    for m in 16 8; do timeout 60 /tmp/tsk $f $sh $m > /tmp/o/tsk-$f-$sh-m$m.txt 2>&1; done
  done
done
save m16
for f in MXFP4 INT4; do for sh in 8192x8192 28672x8192 8192x28672 4096x14336 4096x4096 6144x4096 28672x4096; do timeout 60 /tmp/tsk $f $sh 1 > /tmp/o/tsk-$f-$sh-m1.txt 2>&1; done; done
save m1
grep -h -E "FAIL|FAILURE" /tmp/o/tsk-*.txt | head; grep -h -c "all checks passed" /tmp/o/tsk-*.txt | paste -sd' '
