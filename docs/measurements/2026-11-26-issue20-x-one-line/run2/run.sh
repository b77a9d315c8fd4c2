# call 61: issue 20, x loads over one line: xc (lane q's piece i at k 32i + 8q) and xh (64(i/2) + 16q + 8(i%2)) at
# 8 and 16 rows against the shipped tiled kernels (tsk; x permuted so that outputs equal the shipped kernels')
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call61.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for f in INT4 NVFP4 MXFP4; do
  for sh in 8192x8192 28672x8192 8192x28672 28672x4096 6144x4096; do for m in 16 8 4; do
    timeout 40 /tmp/tsk $f $sh $m "xc m16|xc m8|xh|shipped m8 t2" > /tmp/o/tsk-$f-$sh-m$m.txt 2>&1; done; done
  save $f
done
grep -h -E "FAIL|FAILURE" /tmp/o/tsk-*.txt | head; grep -L "all checks passed" /tmp/o/tsk-*.txt | head
