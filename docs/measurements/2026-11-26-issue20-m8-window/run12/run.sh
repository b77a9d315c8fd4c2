# call 41 (H200): issue 20, NVFP4's and MXFP4's one-row tiled kernels with INT4's rolling window of 3 capped at 4 blocks
# an SM (pipe t1 d3 b4) against the shipped one-row kernels, six shapes; outputs checked
set +e
mkdir -p /tmp/o; rm -f /tmp/o/*
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for s in 8192x8192 8192x28672 28672x8192 4096x4096 6144x4096 4096x14336; do for f in NVFP4 MXFP4 INT4; do timeout 60 /tmp/tsk $f $s 1 > /tmp/o/tsk-$f-$s.txt 2>&1; done; done
tar -C /tmp -czf $OUT/call41.tgz o
grep -h -E "^(INT4|NVFP4|MXFP4) .* 1  (tiled m1|pipe t1 d3|shipped r3)" /tmp/o/tsk-*.txt | awk '{n=NF; if ($NF=="FAIL") n=NF-1; v=$4; for (i=5; i<=n-6; i++) v=v" "$i; printf "%s %s %s %s %s %s\n",$1,$2,$3,v,$(n-4),$(n-1)}'
grep -h "FAIL\|all checks" /tmp/o/tsk-*.txt | sort | uniq -c
