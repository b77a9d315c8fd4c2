# call 156: issue 15, FP8's norms in the products' epilogues (EpilogueRows on the FP8 CUDA-core one-row kernel and the
# FP8 8-row tensor-core kernel, epilogue loads issued before the K loop): the ITs of the epilogue and of the decoder
# with -Droofline.exp.fp8norms=true; Llama-3-8B FP8 steps at 1 x 1k and 1 x 8k: base (d0104f3's roofline-cuda jar),
# off (new jar, norms launched), on (new jar, norms fused), in the order base off on on off base; FP16 base and new
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call156.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar
timeout 200 bash -c "source dist/packed/common.sh; junit --select-method dev.roofline.cuda.kernels.GemvKernelsIT#epilogueAddsTheResidualAndSumsItsSquares --select-method dev.roofline.cuda.kernels.GemvKernelsIT#epilogueScalesByTheRowsRms --select-method dev.roofline.cuda.kernels.GemvKernelsIT#epilogueRunsOnFp16AndFp8WeightsOnly" > /tmp/o/it-gemv.txt 2>&1
grep -a -E "tests (successful|failed)" /tmp/o/it-gemv.txt; save it1
timeout 200 bash -c "source dist/packed/common.sh; JAVA_TOOL_OPTIONS=-Droofline.exp.fp8norms=true junit --select-class dev.roofline.cuda.decode.DenseDecoderIT" > /tmp/o/it-decoder.txt 2>&1
grep -a -E "tests (successful|failed)" /tmp/o/it-decoder.txt; save it2
i=0; for v in base off on on off base; do i=$((i+1))
  opt=""; b=/tmp/b/gpu; [ $v = base ] && b=/tmp/b/base; [ $v = on ] && opt="-Droofline.exp.fp8norms=true"
  timeout 100 bash -c "source dist/packed/common.sh; JAVA_TOOL_OPTIONS='$opt' ROOFLINE_BUNDLE=$b roofline decode llama-3-8b --weights FP8_E4M3 --batch 1 --context 1024,8192" > /tmp/o/decode-$i-$v.txt 2>&1
  grep -a "us/step" /tmp/o/decode-$i-$v.txt | sed -E 's/.*context ([0-9]+) programmatic: ([0-9.]+) us\/step.*read floor ([0-9.]+) us \(([0-9]+) launches.*/'$v' \1: \2 us, floor \3 (\4)/'
  save $i-$v
done
for v in base new; do
  b=/tmp/b/gpu; [ $v = base ] && b=/tmp/b/base
  timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=$b roofline decode llama-3-8b --weights FP16 --batch 1 --context 1024" > /tmp/o/decode-fp16-$v.txt 2>&1
  grep -a "us/step" /tmp/o/decode-fp16-$v.txt | sed -E 's/.*context ([0-9]+) programmatic: ([0-9.]+) us\/step.*/fp16 '$v' \1: \2 us/'
  save fp16-$v
done
