# the final build (the single qkvRopeAppend with its tensorCores argument, the IT's fused launches in one lambda):
# DecodeKernelsIT (all), DenseDecoderIT, CheckpointWeightsIT
rm -rf /tmp/b /tmp/o
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 300 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.CheckpointWeightsIT" > /tmp/o/it-final.txt 2>&1
grep -a -E "tests (successful|failed|aborted)" /tmp/o/it-final.txt; grep -a "✘" /tmp/o/it-final.txt | cut -c1-200 | head -8
echo "done $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call14.tgz o
