source dist/packed/common.sh
S=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > $OUT/device.txt
cat $OUT/device.txt
variant u2 dist/packed/roofline-cuda-u2.jar
timeout 300 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --select-class dev.roofline.cuda.kernels.GemvShapeTest --select-class dev.roofline.cuda.kernels.MoeKernelsIT --select-class dev.roofline.cuda.kernels.MoeKernelsTest --select-class dev.roofline.cuda.decode.MoeDecoderIT --select-class dev.roofline.cuda.decode.DenseDecoderIT" 2>&1 | strip_ansi > $OUT/it.txt
echo "it $(( $(date +%s) - S )) s"; grep -a "tests successful\|tests failed\|tests aborted" $OUT/it.txt; grep -a -B2 -A6 "✘" $OUT/it.txt | head -60
timeout 240 bash -c "source dist/packed/common.sh; roofline gemv-bench --rows 1,2,4,8,16 --no-layer --markdown $OUT/gemv-sweep.md" > $OUT/gemv-sweep.txt 2>&1
echo "sweep $(( $(date +%s) - S )) s"
timeout 90 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/u2 roofline gemv-bench --rows 9,16 --no-layer --no-cublas" > $OUT/gemv-u2.txt 2>&1
timeout 90 bash -c "source dist/packed/common.sh; roofline gemv-bench --rows 9,16 --no-layer --no-cublas" > $OUT/gemv-u4.txt 2>&1
echo "u2 $(( $(date +%s) - S )) s"
