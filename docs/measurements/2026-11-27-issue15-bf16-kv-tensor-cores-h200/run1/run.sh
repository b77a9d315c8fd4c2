# call 179: issue 15: BF16 KV caches' attention split pass on the tensor cores (new: the working tree's sm_90a-only
# fatbin in the bundle's roofline-cuda.jar) against the committed jar (base); route: new with the FP8 CUDA-core GEMV's
# decode and the D=64 FP8 attention's widening through e4m3x2_to_half2_bits. DecodeKernelsIT (all) and DenseDecoderIT
# KV-cache tests on new; attention-bench bf16 base new new base; Llama-3-8B FP16 weights + BF16 cache base/new; FP8
# step and FP8 D=64 attention new/route
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call179.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant new dist/packed/bf16tc-cuda.jar
variant route dist/packed/route-cuda.jar
bun() { [ $1 = base ] && echo /tmp/b/gpu || echo /tmp/b/$1; }
ROOFLINE_BUNDLE=/tmp/b/new timeout 200 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT" > /tmp/o/it-kernels.txt 2>&1
echo "IT kernels: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-kernels.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"
grep -a -E "✘|FAIL|expected" /tmp/o/it-kernels.txt | head -10
ROOFLINE_BUNDLE=/tmp/b/new timeout 120 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.decode.DenseDecoderIT --include-methodname '.*KvCache.*'" > /tmp/o/it-decoder.txt 2>&1
echo "IT decoder: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-decoder.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; save
i=0; for v in base new new base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-bf16-$i-$v.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]"; grep -a "^BF16" /tmp/o/attention-bf16-$i-$v.txt | cut -c1-104
done; save
for v in base new; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16 --head-dim 64 --batch 1,8,32 --context 8192,32768" > /tmp/o/attention-bf16-d64-$i-$v.txt 2>&1
  echo "== $i $v d64 [$(( $(date +%s) - S )) s]"; grep -a "^BF16" /tmp/o/attention-bf16-d64-$i-$v.txt | cut -c1-104
done; save
for b in 1 8; do for v in base new; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 90 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --kv bf16 --batch $b --context 8192" > /tmp/o/decode-$i-$v-b$b.txt 2>&1
  echo "$i $v b$b: $(grep -a 'us/step' /tmp/o/decode-$i-$v-b$b.txt | cut -c1-110) [$(( $(date +%s) - S )) s]"
  grep -a -E "^attention " /tmp/o/decode-$i-$v-b$b.txt | tr -s ' '
done; done; save
for v in new route route new; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 90 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3 --batch 1 --context 1024" > /tmp/o/decode-$i-$v-fp8.txt 2>&1
  echo "$i $v fp8: $(grep -a 'us/step' /tmp/o/decode-$i-$v-fp8.txt | cut -c1-110) [$(( $(date +%s) - S )) s]"
done; save
for v in new route route new; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp8 --head-dim 64 --batch 1,8,32 --context 8192,32768" > /tmp/o/attention-fp8-d64-$i-$v.txt 2>&1
  echo "== $i $v fp8 d64 [$(( $(date +%s) - S )) s]"; grep -a "^FP8" /tmp/o/attention-fp8-d64-$i-$v.txt | cut -c1-104
done; save
