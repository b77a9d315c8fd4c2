source dist/packed/common.sh
S=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > $OUT/device.txt; cat $OUT/device.txt
timeout 420 bash -c 'source dist/packed/common.sh; junit --scan-class-path /tmp/b/gpu/lib/roofline-cuda-tests.jar:/tmp/b/gpu/lib/roofline-nvml-tests.jar --include-classname ".*(IT|Test)$" --reports-dir $OUT/reports --config=junit.jupiter.execution.timeout.default=120s' 2>&1 | strip_ansi > $OUT/suite.txt
echo "suite $(( $(date +%s) - S )) s"; grep -a "tests successful\|tests failed\|tests aborted\|tests found" $OUT/suite.txt; grep -a -B2 -A8 "✘" $OUT/suite.txt | head -80
