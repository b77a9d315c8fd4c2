# call 189: issue 15: the final BF16-cache build (every warp splits q itself; its bundle, new) against 5633d5c's fatbin
# in the same jar (base, the CUDA cores): ITs; attention-bench bf16 base new new base, fp16; Llama-3-8B FP16 weights +
# BF16 cache at batch 1 x 8k and 8 x 8k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call189.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar
bun() { [ $1 = new ] && echo /tmp/b/gpu || echo /tmp/b/$1; }
timeout 240 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.MoeDecoderIT --select-class dev.roofline.cuda.decode.CheckpointWeightsIT" > /tmp/o/it.txt 2>&1
echo "IT: $(grep -a -E 'tests (successful|failed|aborted)' /tmp/o/it.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; save
i=0; for v in base new new base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-bf16-$i-$v.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]"; grep -a "^BF16" /tmp/o/attention-bf16-$i-$v.txt | cut -c1-60
done; save
for v in base new; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16 --head-dim 64 --batch 1,8,32 --context 1024,8192,32768" > /tmp/o/attention-bf16-d64-$i-$v.txt 2>&1
  echo "== $i $v d64 [$(( $(date +%s) - S )) s]"; grep -a "^BF16" /tmp/o/attention-bf16-d64-$i-$v.txt | cut -c1-60
done
i=$((i+1)); timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp16 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-fp16-$i-new.txt 2>&1
echo "== $i fp16 [$(( $(date +%s) - S )) s]"; grep -a "^B=" /tmp/o/attention-fp16-$i-new.txt | cut -c1-60; save
for b in 1 8; do for v in base new new base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 90 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --kv bf16 --batch $b --context 8192" > /tmp/o/decode-$i-$v-b$b.txt 2>&1
  echo "$i $v b$b: $(grep -a 'us/step' /tmp/o/decode-$i-$v-b$b.txt | cut -c1-100) [$(( $(date +%s) - S )) s]"
done; done; save
