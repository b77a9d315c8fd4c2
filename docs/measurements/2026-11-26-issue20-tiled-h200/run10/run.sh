# call 13 (H200): the final build's GEMV and decoder ITs
source dist/packed/common.sh
mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version --format=csv > /tmp/o/device.txt
timeout 400 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.kernels.TiledLayoutTest" > /tmp/o/it.txt 2>&1
tar -C /tmp -czf $OUT/call13.tgz o
strip_ansi < /tmp/o/it.txt | grep -a "tests successful\|tests failed\|tests aborted" || tail -20 /tmp/o/it.txt; strip_ansi < /tmp/o/it.txt | grep -a -B2 -A10 "✘" | head -30
