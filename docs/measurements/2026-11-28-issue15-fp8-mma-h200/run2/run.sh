# the FP8 mma chain probe, then the whole GPU suite from the bundle of 9cc25c5
rm -rf /tmp/b /tmp/o
mkdir -p /tmp/o
S=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/packed/fp8mma.xz > /tmp/fp8mma; chmod +x /tmp/fp8mma; /tmp/fp8mma chain > /tmp/o/chain.txt 2>&1; cat /tmp/o/chain.txt
echo "probe $(( $(date +%s) - S )) s"
source dist/packed/common.sh
timeout 420 /tmp/b/gpu/run-gpu-tests.sh /tmp/o/reports > /tmp/o/suite.txt 2>&1; echo "suite rc $?"
strip_ansi < /tmp/o/suite.txt | grep -a -E "tests (successful|failed|aborted|found)" ; strip_ansi < /tmp/o/suite.txt | grep -a -E "✘|FAILED" | cut -c1-220 | head -20
echo "done $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/s1.tgz o
