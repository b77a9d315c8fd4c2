# call 60: issue 20, x loads over one line (xc: lane q's piece i at k 32i + 8q) against the shipped tiled kernels,
# tsk only (x permuted so that outputs equal the shipped kernels'), 1-16 rows
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call60.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for f in INT4 NVFP4 MXFP4; do
  for sh in 8192x8192 28672x8192 8192x28672; do for m in 16 8 4 2 1; do
    timeout 40 /tmp/tsk $f $sh $m "xc|shipped" > /tmp/o/tsk-$f-$sh-m$m.txt 2>&1; done; done
  save $f-large
  for sh in 4096x4096 6144x4096 28672x4096 4096x14336; do for m in 16 8 4; do
    timeout 40 /tmp/tsk $f $sh $m "xc|shipped" > /tmp/o/tsk-$f-$sh-m$m.txt 2>&1; done; done
  save $f-llama
done
grep -h -E "FAIL|FAILURE" /tmp/o/tsk-*.txt | head; grep -L "all checks passed" /tmp/o/tsk-*.txt | head
grep -h -E "^(INT4|NVFP4|MXFP4) +[0-9]+x[0-9]+ +[0-9]+ " /tmp/o/tsk-*.txt | awk '{printf "%s %s %s %-14s %s\n",$1,$2,$3,$4" "$5" "$6,$0}' | cut -c1-200 > /tmp/o/all.txt
save done
