# call 15 (H200): the review fixes' ITs: GemvKernelsIT (tiled refusals), DenseDecoderIT, CheckpointWeightsIT
source dist/packed/common.sh
mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version --format=csv > /tmp/o/device.txt
timeout 420 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.CheckpointWeightsIT" > /tmp/o/it.txt 2>&1
tar -C /tmp -czf $OUT/call15.tgz o
strip_ansi < /tmp/o/it.txt | grep -a "tests successful\|tests failed\|tests aborted" || tail -20 /tmp/o/it.txt; strip_ansi < /tmp/o/it.txt | grep -a -B2 -A12 "✘" | head -40
