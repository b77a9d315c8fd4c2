# call 195: issue 15: the final build (FP8 caches at head size 128 split by tokens over the warps, all-architecture
# fatbin) against HEAD 61bdaf0's sm_90a fatbin (base): DecodeKernelsIT, DenseDecoderIT, MoeDecoderIT; attention-bench
# FP8 at 1/8/32 x 1k-32k (base new new base); Llama-3-8B FP16 weights + FP8 cache at 1 and 8 x 8k, FP8 weights + FP8
# cache at 1 x 1k and 8k (base new new base)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call195.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/merged-cuda.jar
bun() { [ $1 = new ] && echo /tmp/b/gpu || echo /tmp/b/$1; }
timeout 240 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.MoeDecoderIT" > /tmp/o/it.txt 2>&1
echo "IT: $(grep -a -E 'tests (successful|failed)' /tmp/o/it.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a "✘" /tmp/o/it.txt | head; save
i=0; for v in base new new base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp8 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-fp8-$i-$v.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]"; grep -a "^FP8" /tmp/o/attention-fp8-$i-$v.txt | cut -c1-60
done; save
for v in base new new base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 120 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --kv fp8 --batch 1,8 --context 8192" > /tmp/o/decode-$i-$v-fp16w.txt 2>&1
  echo "$i $v fp16w: $(grep -a 'us/step' /tmp/o/decode-$i-$v-fp16w.txt | cut -c1-100 | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; save
  ROOFLINE_BUNDLE=$(bun $v) timeout 120 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3 --kv fp8 --batch 1 --context 1024,8192" > /tmp/o/decode-$i-$v-fp8w.txt 2>&1
  echo "$i $v fp8w: $(grep -a 'us/step' /tmp/o/decode-$i-$v-fp8w.txt | cut -c1-100 | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; save
done
