# call 64: issue 20, the x-one-line layout: MXFP4's one-row window with emax unpacked (63 registers) against its plain
# kernel, and the two-tile 8-row kernels against one tile, every format, seven shapes (tsk)
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call64.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for sh in 8192x8192 28672x8192 8192x28672 4096x4096 6144x4096 28672x4096 4096x14336; do
  for f in INT4 MXFP4; do timeout 30 /tmp/tsk $f $sh 1 > /tmp/o/tsk-$f-$sh-m1.txt 2>&1; done
  for f in INT4 NVFP4 MXFP4; do for m in 5 8; do timeout 30 /tmp/tsk $f $sh $m > /tmp/o/tsk-$f-$sh-m$m.txt 2>&1; done; done
done
save tsk; grep -h -E "FAIL|FAILURE| NO" /tmp/o/tsk-*.txt | head; grep -L "all checks passed" /tmp/o/tsk-*.txt | head
