# call 187: issue 15: the final build 5b51b8b: DecodeKernelsIT (the BF16 attention rows for every kernel) and
# DenseDecoderIT, CheckpointWeightsIT
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 240 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.CheckpointWeightsIT" > /tmp/o/it.txt 2>&1
echo "IT: $(grep -a -E 'tests (successful|failed|aborted)' /tmp/o/it.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"
grep -a -E "BF16 cache, scales 1 and 1, lengths" /tmp/o/it.txt | sed -r 's/\x1B\[[0-9;]*[mK]//g' | cut -c1-130
tar -C /tmp -czf $OUT/call187.tgz o
