# call 164: issue 15: the products' tail operands (row scales, the epilogue's residual, norm weight and sums) asked of
# L1 at their start (prefetch.global.L1; pf: sm_90a-only fatbin of that source in the same jar) against the committed
# fatbin (base): ITs on pf, FP8 and FP16 batch 1 x 1k steps base pf pf base, FP8 batch 8 x 1k base pf
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call164.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant pf dist/packed/pf-cuda.jar
i=0; for v in base pf pf base; do i=$((i+1))
  b=/tmp/b/gpu; [ $v = pf ] && b=/tmp/b/pf
  timeout 120 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=$b roofline decode llama-3-8b --weights FP8_E4M3,FP16 --batch 1 --context 1024" > /tmp/o/decode-$i-$v.txt 2>&1
  grep -a "us/step" /tmp/o/decode-$i-$v.txt | sed -E 's/^Llama-3-8B ([A-Z0-9_]+) batch ([0-9]+) context ([0-9]+) programmatic: ([0-9.]+) us\/step.*read floor ([0-9.]+) us.*/'$v' \1: \4 us, floor \5/'
  grep -a -E "^(qkv_proj|o_proj|gate_up_proj|down_proj) " /tmp/o/decode-$i-$v.txt | tr -s ' ' | rev | cut -d' ' -f2-3 | rev | tr '\n' ';'; echo
  save $i-$v
done
for v in base pf; do
  b=/tmp/b/gpu; [ $v = pf ] && b=/tmp/b/pf
  timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=$b roofline decode llama-3-8b --weights FP8_E4M3 --batch 8 --context 1024" > /tmp/o/decode-b8-$v.txt 2>&1
  grep -a "us/step" /tmp/o/decode-b8-$v.txt | cut -c1-90
  save b8-$v
done
timeout 200 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/pf junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*([eE]pilogue|tensorCoreKSplits|cudaCoreOddRows|tensorCorePartialStep).*'" > /tmp/o/it-gemv-pf.txt 2>&1
grep -a -E "tests (successful|failed)" /tmp/o/it-gemv-pf.txt; save it1
timeout 150 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/pf junit --select-class dev.roofline.cuda.decode.DenseDecoderIT" > /tmp/o/it-decoder-pf.txt 2>&1
grep -a -E "tests (successful|failed)" /tmp/o/it-decoder-pf.txt; save it2
