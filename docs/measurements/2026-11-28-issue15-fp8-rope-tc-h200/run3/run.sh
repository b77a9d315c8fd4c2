# FP8 q/k/v with RoPE in the product, the tensor cores only where the split pass runs in stream order (1k here),
# the CUDA cores elsewhere (8k): DecodeKernelsIT q/k/v RoPE tests (with the CUDA-core check at tensor-core shapes),
# DenseDecoderIT; Llama-3-8B FP8 steps 1 x 1k / 8k base new new base (base: ae56322 roofline-cuda jar)
rm -rf /tmp/b /tmp/o
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call13.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*qkvRope.*'" > /tmp/o/it-kernels.txt 2>&1
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.decode.DenseDecoderIT" > /tmp/o/it-decoder.txt 2>&1
grep -a -E "tests (successful|failed)" /tmp/o/it-*.txt; grep -a "✘" /tmp/o/it-*.txt | cut -c1-200 | head -8; save it
i=0; for v in base new new base; do i=$((i+1))
  b=/tmp/b/gpu; [ $v != new ] && b=/tmp/b/$v
  timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=$b roofline decode llama-3-8b --weights FP8_E4M3 --batch 1 --context 1024,8192" > /tmp/o/decode-$i-$v.txt 2>&1
  grep -a "us/step" /tmp/o/decode-$i-$v.txt | sed -E 's/.*context ([0-9]+) programmatic: ([0-9.]+) us\/step.*read floor ([0-9.]+) us \(([0-9]+) launches.*/'$v' \1: \2 us, floor \3 (\4)/'
  save $i-$v
done
