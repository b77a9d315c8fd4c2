# run 2 (H200): GemvKernelsIT after the review (MXFP4 x BF16 output factor, new IT cases)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call8.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
timeout 300 bash -c 'source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT' 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted" /tmp/o/it.txt; grep -a "✘" /tmp/o/it.txt | head -20; grep -a -A4 "mxfp4WithBf16\|mxfp4RowScales" /tmp/o/it.txt | head -14
