# call 165: issue 15: the tensor-core products' row scales, residual and norm weight asked of L1 at their start (pf2,
# sm_90a-only fatbin in the same jar; no CUDA-core prefetch, no sums) against the committed fatbin (base): FP8 batch 1
# x 1k steps base pf2 pf2 base, FP8 batch 8 x 1k base pf2; GemvKernelsIT's epilogue tests on pf2
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call165.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant pf dist/packed/pf-cuda.jar
i=0; for v in base pf2 pf2 base; do i=$((i+1))
  b=/tmp/b/gpu; [ $v = pf2 ] && b=/tmp/b/pf
  timeout 80 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=$b roofline decode llama-3-8b --weights FP8_E4M3 --batch 1 --context 1024" > /tmp/o/decode-$i-$v.txt 2>&1
  grep -a "us/step" /tmp/o/decode-$i-$v.txt | sed -E 's/^Llama-3-8B ([A-Z0-9_]+) batch ([0-9]+) context ([0-9]+) programmatic: ([0-9.]+) us\/step.*read floor ([0-9.]+) us.*/'$v' \1: \4 us, floor \5/'
  grep -a -E "^(qkv_proj|o_proj|gate_up_proj|down_proj) " /tmp/o/decode-$i-$v.txt | tr -s ' ' | rev | cut -d' ' -f2-3 | rev | tr '\n' ';'; echo
  save $i-$v
done
for v in base pf2; do
  b=/tmp/b/gpu; [ $v = pf2 ] && b=/tmp/b/pf
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=$b roofline decode llama-3-8b --weights FP8_E4M3 --batch 8 --context 1024" > /tmp/o/decode-b8-$v.txt 2>&1
  grep -a "us/step" /tmp/o/decode-b8-$v.txt | cut -c1-90
  save b8-$v
done
timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/pf junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[eE]pilogue.*'" > /tmp/o/it-gemv-pf2.txt 2>&1
grep -a -E "tests (successful|failed)" /tmp/o/it-gemv-pf2.txt; save it
