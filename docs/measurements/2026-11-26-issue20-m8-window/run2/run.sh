# call 31 (H200): issue 20, tiled_splitk.cu's bulk ring (slot released after its step) against the shipped tiled
# kernels at 8192^2 and the Llama-3-8B decode products, 1/8/12/16 rows, outputs checked
set +e
mkdir -p /tmp/o; rm -f /tmp/o/*
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for s in 8192x8192 4096x4096 6144x4096 4096x14336 28672x4096; do timeout 100 /tmp/tsk "" $s > /tmp/o/tsk-$s.txt 2>&1; echo "$s rc=$?"; done
tar -C /tmp -czf $OUT/call31.tgz o
cat /tmp/o/tsk-*.txt | grep -v "bf16\|pipe\|sk ks\|layout" | grep -E "FAIL|tiled|bulk|shipped|passed|FAILURE" | awk '{print $1,$2,$3,$4,$5,$7,$10,$12}'
