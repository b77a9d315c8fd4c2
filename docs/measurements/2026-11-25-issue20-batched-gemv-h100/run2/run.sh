source dist/packed/common.sh
S=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > $OUT/device.txt; cat $OUT/device.txt
for v in u2 eb lb lu; do variant $v dist/packed/roofline-cuda-$v.jar; done
variant base dist/packed/roofline-cuda-base.jar
for v in gpu u2 eb lb lu; do
  echo "=== variant $v" >> $OUT/m16-variants.txt
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 60 bash -c "source dist/packed/common.sh; roofline gemv-bench --rows 9,16 --no-layer --no-cublas" 2>&1 | grep -E "^\s+(FP16|BF16|FP8|INT8|INT4|NVFP4|MXFP4)|copy bandwidth" >> $OUT/m16-variants.txt
  echo "$v $(( $(date +%s) - S )) s"
done
PYTHONUNBUFFERED=1 timeout 120 python3 roofline-cuda/src/bench/python/gemv_torch.py > $OUT/torch-gemv.txt 2>&1
echo "torch $(( $(date +%s) - S )) s"
timeout 200 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3,NVFP4,BF16,INT4,INT8,FP16 --batch 8,16 --context 1024 --format markdown" > $OUT/decode-new.md 2>&1
echo "new $(( $(date +%s) - S )) s"
ROOFLINE_BUNDLE=/tmp/b/base timeout 120 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3,NVFP4,BF16 --batch 8 --context 1024 --format markdown" > $OUT/decode-base.md 2>&1
echo "base $(( $(date +%s) - S )) s"
grep -a "us/step" $OUT/decode-new.md $OUT/decode-base.md | cut -c1-200
