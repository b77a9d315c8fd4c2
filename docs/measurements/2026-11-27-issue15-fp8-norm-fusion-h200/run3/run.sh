# call 158: issue 15, FP8 norms in the products' epilogues as built (the _ep kernels): GemvKernelsIT's epilogue tests,
# DenseDecoderIT, CheckpointWeightsIT; Llama-3-8B FP8 steps 1 x 1k / 8k base new new base, FP8 8 x 1k and FP16 1 x 1k
# base and new (base: d0104f3's roofline-cuda jar)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call158.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[eE]pilogue.*'" > /tmp/o/it-gemv.txt 2>&1
grep -a -E "tests (successful|failed)" /tmp/o/it-gemv.txt; save it1
timeout 200 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.CheckpointWeightsIT" > /tmp/o/it-decoder.txt 2>&1
grep -a -E "tests (successful|failed)" /tmp/o/it-decoder.txt; save it2
i=0; for v in base new new base; do i=$((i+1))
  b=/tmp/b/gpu; [ $v = base ] && b=/tmp/b/base
  timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=$b roofline decode llama-3-8b --weights FP8_E4M3 --batch 1 --context 1024,8192" > /tmp/o/decode-$i-$v.txt 2>&1
  grep -a "us/step" /tmp/o/decode-$i-$v.txt | sed -E 's/.*context ([0-9]+) programmatic: ([0-9.]+) us\/step.*read floor ([0-9.]+) us \(([0-9]+) launches.*/'$v' \1: \2 us, floor \3 (\4)/'
  save $i-$v
done
for v in base new; do
  b=/tmp/b/gpu; [ $v = base ] && b=/tmp/b/base
  timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=$b roofline decode llama-3-8b --weights FP8_E4M3 --batch 8 --context 1024" > /tmp/o/decode-fp8b8-$v.txt 2>&1
  timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=$b roofline decode llama-3-8b --weights FP16 --batch 1 --context 1024" > /tmp/o/decode-fp16-$v.txt 2>&1
  grep -a -h "us/step" /tmp/o/decode-fp8b8-$v.txt /tmp/o/decode-fp16-$v.txt | sed -E 's/^Llama-3-8B ([A-Z0-9_]+) batch ([0-9]+) context ([0-9]+) programmatic: ([0-9.]+) us\/step.*/'$v' \1 \2 x \3: \4 us/'
  save other-$v
done
