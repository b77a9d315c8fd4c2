# call 5: the warp merge (decode_attention_merge_d<D>_c<8|16>, "new") against the block merge of 364d95f ("base", its
# roofline-cuda.jar in the same bundle): decoder and kernel ITs on new; attention-bench FP8 and FP16 at head size 128,
# 1, 8 and 32 rows, base new new base; Llama-3-8B FP16 steps (FP16 cache 1 and 8 x 1k, FP8 cache 1 and 8 x 8k), base new
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call5.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant new /tmp/b/gpu/lib/roofline-cuda.jar; variant base dist/packed/base-cuda.jar
ROOFLINE_BUNDLE=/tmp/b/new timeout 200 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.MoeDecoderIT" > /tmp/o/it-new.txt 2>&1
echo "IT new: $(grep -a -E 'tests (successful|failed|found)' /tmp/o/it-new.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘" /tmp/o/it-new.txt | head; save
i=0
bench() { # bench NAME KV DIM BATCHES CONTEXTS VARIANTS...
  local nm=$1 kv=$2 d=$3 bs=$4 cs=$5; shift 5
  for v in "$@"; do i=$((i+1))
    ROOFLINE_BUNDLE=/tmp/b/$v timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --head-dim $d --batch $bs --context $cs" > /tmp/o/attention-$nm-$i-$v.txt 2>&1
    echo "== $i $nm $v [$(( $(date +%s) - S )) s]"
  done; save
}
bench fp8 fp8 128 1,8,32 1024,8192,16384,32768 base new new base
bench fp16 fp16 128 1,8,32 1024,8192,16384,32768 base new new base
for v in base new; do i=$((i+1))
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 100 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1,8 --context 1024" > /tmp/o/decode-$i-$v-fp16.txt 2>&1
  echo "$i $v fp16 1k: $(grep -a 'us/step' /tmp/o/decode-$i-$v-fp16.txt | cut -c1-110 | tr '\n' ' ') [$(( $(date +%s) - S )) s]"
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 120 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --kv fp8 --batch 1,8 --context 8192" > /tmp/o/decode-$i-$v-fp8kv.txt 2>&1
  echo "$i $v fp8kv: $(grep -a 'us/step' /tmp/o/decode-$i-$v-fp8kv.txt | cut -c1-110 | tr '\n' ' ') [$(( $(date +%s) - S )) s]"
  save
done
echo "done [$(( $(date +%s) - S )) s]"
