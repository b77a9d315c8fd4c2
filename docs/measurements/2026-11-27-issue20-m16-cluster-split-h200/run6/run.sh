# call 131: issue 20, one row: the shipped one-row small-grid kernels' blocks with K split over a cluster of 2 (ks2 m1)
# beside the shipped kernels, three formats, seven shapes of 64 to 512 blocks
xz -dc dist/probe/tsk-ks2m1.xz > /tmp/tsk && chmod +x /tmp/tsk
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call131.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for f in INT4 NVFP4 MXFP4; do
for sh in 4096x14336 4096x4096 6144x4096 2048x8192 8192x8192 1024x4096 4096x28672; do
  timeout 60 /tmp/tsk $f $sh 1 > /tmp/o/$f-$sh.txt 2>&1
done; done; save done
grep -h "all checks\|FAIL\|NO" /tmp/o/*.txt | sort | uniq -c
