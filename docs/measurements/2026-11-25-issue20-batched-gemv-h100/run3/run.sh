source dist/packed/common.sh
S=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > $OUT/device.txt; cat $OUT/device.txt
timeout 180 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --select-class dev.roofline.cuda.kernels.GemvShapeTest --select-class dev.roofline.cuda.kernels.MoeKernelsIT --select-class dev.roofline.cuda.kernels.MoeKernelsTest --select-class dev.roofline.cuda.decode.MoeDecoderIT --select-class dev.roofline.cuda.decode.DenseDecoderIT" 2>&1 | strip_ansi > $OUT/it.txt
echo "it $(( $(date +%s) - S )) s"; grep -a "tests successful\|tests failed\|tests aborted" $OUT/it.txt; grep -a -B2 -A6 "✘" $OUT/it.txt | head -40
timeout 40 bash -c "source dist/packed/common.sh; roofline gemv-bench --rows 16 --no-layer --no-cublas" > $OUT/gemv-m16.txt 2>&1
echo "m16 $(( $(date +%s) - S )) s"
timeout 310 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8,16 --context 1024,8192 --calibrate $OUT/calibration.json --format markdown" > $OUT/decode-sweep.md 2>&1
echo "sweep $(( $(date +%s) - S )) s"
grep -a "us/step" $OUT/decode-sweep.md | cut -c1-150
sed -n '/alibration/,$p' $OUT/decode-sweep.md | tail -45
