# call 117: issue 20, the last-wave rule at more grids: tsk (f50b9ce's harness with the shipped b3 / b4 kernels listed)
# at one row, INT4, NVFP4, MXFP4, six shapes of 640 to 3584 blocks, twice
source dist/packed/common.sh; xz -dc dist/probe/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call117.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for r in 1 2; do
for sh in 10240x8192 11264x4096 14336x4096 24576x4096 40960x4096 57344x8192; do
  timeout 100 /tmp/tsk "" $sh 1 > /tmp/o/tsk$r-$sh.txt 2>&1
done; save $r
done
grep -h "all checks\|FAIL\|NO" /tmp/o/*.txt | sort | uniq -c
