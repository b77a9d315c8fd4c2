# call 125: issue 20, 16 rows: the shipped 16-row tiled kernels with each block's K split over a cluster of 2 (ks2),
# tsk at 16 rows, three formats, seven shapes, two rounds
xz -dc dist/probe/tsk-ks2.xz > /tmp/tsk && chmod +x /tmp/tsk
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call125.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for r in 1 2; do
for f in INT4 NVFP4 MXFP4; do
for sh in 8192x8192 28672x8192 8192x28672 28672x4096 14336x4096 6144x4096 4096x14336; do
  timeout 100 /tmp/tsk $f $sh 16 > /tmp/o/$r-$f-$sh.txt 2>&1
done; done; save round$r; done
grep -h "all checks\|FAIL\|NO" /tmp/o/*.txt | sort | uniq -c
grep -h "tiled m16\|ks2 m16" /tmp/o/1-*.txt
