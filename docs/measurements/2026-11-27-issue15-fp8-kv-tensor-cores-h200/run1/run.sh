# call 173: issue 15: FP8 KV caches' attention split pass on the tensor cores (head size 128; new: the working tree's
# sm_90a-only fatbin in the bundle's roofline-cuda.jar) against the committed jar (base): DecodeKernelsIT attention
# tests and DenseDecoderIT's KV-cache tests on new; attention-bench fp8 base new new base, fp16 base new; Llama-3-8B
# FP16 weights with an FP8 cache, steps base new at batch 1 x 8k and 8 x 8k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call173.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant new dist/packed/fp8tc-cuda.jar
bun() { [ $1 = base ] && echo /tmp/b/gpu || echo /tmp/b/new; }
ROOFLINE_BUNDLE=/tmp/b/new timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-kernels.txt 2>&1
echo "IT kernels: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-kernels.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"
grep -a -E "Fp8|FP8" /tmp/o/it-kernels.txt | head -8
ROOFLINE_BUNDLE=/tmp/b/new timeout 120 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.decode.DenseDecoderIT --include-methodname '.*KvCache.*'" > /tmp/o/it-decoder.txt 2>&1
echo "IT decoder: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-decoder.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; save
i=0; for v in base new new base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp8 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-fp8-$i-$v.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]"; grep -a "^FP8" /tmp/o/attention-fp8-$i-$v.txt | cut -c1-104
done; save
for v in base new; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp16 --batch 1,8 --context 8192,32768" > /tmp/o/attention-fp16-$i-$v.txt 2>&1
  echo "== $i $v fp16 [$(( $(date +%s) - S )) s]"; grep -a "^B=" /tmp/o/attention-fp16-$i-$v.txt | cut -c1-70
done; save
for b in 1 8; do for v in base new; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 90 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --kv fp8 --batch $b --context 8192" > /tmp/o/decode-$i-$v-b$b.txt 2>&1
  echo "$i $v b$b: $(grep -a 'us/step' /tmp/o/decode-$i-$v-b$b.txt | cut -c1-110) [$(( $(date +%s) - S )) s]"
  grep -a -E "^attention " /tmp/o/decode-$i-$v-b$b.txt | tr -s ' '
done; done; save
