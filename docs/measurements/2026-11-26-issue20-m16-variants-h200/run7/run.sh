# call 26 (H200): issue 20 — the tiled 4-bit GEMV with each warp's weights through a shared-memory ring filled by
# cp.async (ring t<T> s<S>; gemv_tiled.cu's RING, uncommitted at the time) beside the shipped tiled kernels and the
# earlier variants, at 1/8/12/16 rows, six shapes
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call26.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 100 dist/packed/tsk > /tmp/o/tsk-big.txt 2>&1; echo big rc=$?
for sh in 4096x4096 6144x4096 4096x14336; do timeout 40 dist/packed/tsk "" $sh > /tmp/o/tsk-$sh.txt 2>&1; echo $sh rc=$?; done
save tsk; cat /tmp/o/tsk-*.txt | grep -E "^(INT4|NVFP4|MXFP4)" | grep -E "tiled|ring" | grep -E " (1|8|16) " | grep -v "1024x4096\|2096x8576" | awk '{printf "%s %s %s %s %s %s\n",$1,$2,$3,$4,$5,($4=="tiled"?$7:$7)}'; grep -h "all checks\|FAIL" /tmp/o/tsk-*.txt | sort | uniq -c
