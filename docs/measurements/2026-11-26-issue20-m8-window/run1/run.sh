# call 30 (H200): issue 20, tiled_splitk.cu with the bulk ring variants (cp.async.bulk + mbarriers) against the shipped
# tiled kernels, five shapes, 1/8/12/16 rows, outputs checked against the row-major tensor-core kernels
set +e
mkdir -p /tmp/o; rm -f /tmp/o/*
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
timeout 200 /tmp/tsk > /tmp/o/tsk.txt 2>&1; echo rc=$?
tar -C /tmp -czf $OUT/call30.tgz o
grep -v "bf16\|pipe\|sk ks" /tmp/o/tsk.txt
