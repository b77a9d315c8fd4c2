# call 77: the ITs of call 75 again, with time to finish (GemvKernelsIT, DenseDecoderIT, StreamReadIT) on 6db163a
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call77.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 560 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.StreamReadIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.kernels.GemvKernelsIT" > /tmp/o/it-raw.txt 2>&1
echo rc=$?; strip_ansi < /tmp/o/it-raw.txt > /tmp/o/it.txt; rm /tmp/o/it-raw.txt
save it; grep -a -E "tests (successful|failed|aborted)" /tmp/o/it.txt; grep -a -B2 -A8 "✘" /tmp/o/it.txt | head -30
