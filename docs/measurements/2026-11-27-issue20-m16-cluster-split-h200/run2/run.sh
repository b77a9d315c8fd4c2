# call 126: issue 20, 16 and 12 rows: ks2 (each block's K split over a cluster of 2) against the shipped 16-row
# kernels on grids of up to one block of two tiles an SM, three formats, nine shapes
xz -dc dist/probe/tsk-ks2.xz > /tmp/tsk && chmod +x /tmp/tsk
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call126.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for m in 16 12; do
for f in INT4 NVFP4 MXFP4; do
for sh in 1024x4096 2096x8576 2048x8192 3072x8192 4096x11008 4096x14336 5120x13824 4224x14336 4096x28672 4352x14336; do
  timeout 100 /tmp/tsk $f $sh $m > /tmp/o/$m-$f-$sh.txt 2>&1
done; done; save m$m; done
grep -h "all checks\|FAIL\|NO" /tmp/o/*.txt | sort | uniq -c
grep -h "tiled m16\|ks2 m16" /tmp/o/*.txt | awk '{print $1,$2,$3,$4,$5,$7}' | paste - - 
