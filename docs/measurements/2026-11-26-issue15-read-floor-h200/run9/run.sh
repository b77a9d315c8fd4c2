# call 78: GemvKernelsIT's tensor-core K splits alone (FP8 at one row on the 16-warp kernel at 4096 and 6144 rows among them), on 6db163a + the fixed K
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call78.tgz o; }
nvidia-smi --query-gpu=name,driver_version --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 240 bash -c "source dist/packed/common.sh; junit '--select-method=dev.roofline.cuda.kernels.GemvKernelsIT#tensorCoreKSplits(dev.roofline.cuda.kernels.WeightFormat,int,int,int)'" > /tmp/o/it-raw.txt 2>&1
echo rc=$?; strip_ansi < /tmp/o/it-raw.txt > /tmp/o/it.txt; rm /tmp/o/it-raw.txt
save it; grep -a -E "tests (successful|failed|aborted)" /tmp/o/it.txt; grep -a -B2 -A8 "✘" /tmp/o/it.txt | head -20; grep -a "M=1, N=4096\|M=1, N=6144" /tmp/o/it.txt; tail -3 /tmp/o/it.txt
