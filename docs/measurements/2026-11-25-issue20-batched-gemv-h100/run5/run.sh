source dist/packed/common.sh
S=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > $OUT/device.txt; cat $OUT/device.txt
timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8,16 --context 1024,8192 --calibrate $OUT/calibration.json --format markdown" > $OUT/decode-sweep.md 2>&1
echo "sweep $(( $(date +%s) - S )) s"
sed -n '/alibration/,$p' $OUT/decode-sweep.md | tail -32
timeout 100 bash -c "source dist/packed/common.sh; roofline gemv-bench --rows 1,2,4,8,16 --no-layer --markdown $OUT/gemv-sweep.md" > $OUT/gemv-sweep.txt 2>&1
echo "gemv $(( $(date +%s) - S )) s"
