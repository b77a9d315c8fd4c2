# call 58: the ITs of build a8b5daf (GemvKernelsIT tiled cases, DenseDecoderIT, CheckpointWeightsIT) on one GPU
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call58.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 170 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[Tt]iled.*'" 2>&1 | strip_ansi > /tmp/o/it-tiled.txt
save it-tiled; grep -E "tests (successful|failed|aborted)" /tmp/o/it-tiled.txt; grep -a -B2 -A8 "✘" /tmp/o/it-tiled.txt | head -20
timeout 150 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.decode.DenseDecoderIT -c dev.roofline.cuda.decode.CheckpointWeightsIT" 2>&1 | strip_ansi > /tmp/o/it-decoder.txt
save it-decoder; grep -E "tests (successful|failed|aborted)" /tmp/o/it-decoder.txt; grep -a -B2 -A8 "✘" /tmp/o/it-decoder.txt | head -20
