# invoked as: bash dist/bench/call33.sh 35 (kind nvidia-h100-x1; this binary adds the INT4 window capped at 4 blocks an SM)
# call 33/34 (H100, then H200): issue 20, the tiled kernels at 2, 4 and 8 rows against rolling windows of 3, 4, 6
# steps (pipe m8) and the bulk ring, at the three large shapes and 4096x14336; outputs checked
set +e
N=${1:-33}
mkdir -p /tmp/o; rm -f /tmp/o/*
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for s in 8192x28672 8192x8192 28672x8192 4096x14336; do for m in 2 4 8; do timeout 60 /tmp/tsk "" $s $m > /tmp/o/tsk-$s-m$m.txt 2>&1; echo "$s m$m rc=$?"; done; done
tar -C /tmp -czf $OUT/call$N.tgz o
grep -h -E "^(INT4|NVFP4|MXFP4) " /tmp/o/tsk-*.txt | grep -v layout | awk '{n=NF; f=""; if ($NF=="FAIL") {n=NF-1; f="FAIL"} v=$4; for (i=5; i<=n-6; i++) v=v" "$i; printf "%s %s %s %s %s %s %s\n",$1,$2,$3,v,$(n-4),$(n-1),f}'
grep -h "FAIL" /tmp/o/tsk-*.txt | head
