# call 197: issue 15: the final build (FP16 / BF16 caches' tiles zero-filled, no masks) against the bundle of fdd54f6
# (prev): DecodeKernelsIT, DenseDecoderIT, MoeDecoderIT; the NaN-tail test on the leak mutation (must fail);
# attention-bench FP16 / BF16 (prev new new prev) and FP16 at head size 64; Llama-3-8B FP16 steps (prev new new prev)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call197.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for v in prev leak; do variant $v dist/packed/$v-cuda.jar; done
bun() { [ $1 = new ] && echo /tmp/b/gpu || echo /tmp/b/$1; }
ROOFLINE_BUNDLE=/tmp/b/leak timeout 100 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*attentionNeverReadsPastEachLength.*'" > /tmp/o/it-leak.txt 2>&1
echo "IT leak: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-leak.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘|✔" /tmp/o/it-leak.txt | head -12; save
timeout 240 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.MoeDecoderIT" > /tmp/o/it.txt 2>&1
echo "IT: $(grep -a -E 'tests (successful|failed)' /tmp/o/it.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a "✘" /tmp/o/it.txt | head; save
i=0
bench() { local nm=$1 kv=$2 d=$3; shift 3
  for v in "$@"; do i=$((i+1))
    ROOFLINE_BUNDLE=$(bun $v) timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --head-dim $d --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-$nm-$i-$v.txt 2>&1
    echo "== $i $nm $v [$(( $(date +%s) - S )) s]"; grep -a -E "B=1 context" /tmp/o/attention-$nm-$i-$v.txt | grep -v TFLOPS | cut -c1-70
  done; save; }
bench fp16 fp16 128 prev new new prev
bench bf16 bf16 128 prev new
bench fp16d64 fp16 64 prev new
for v in prev new new prev; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 120 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1 --context 1024,8192" > /tmp/o/decode-$i-$v.txt 2>&1
  echo "$i $v: $(grep -a 'us/step' /tmp/o/decode-$i-$v.txt | cut -c1-100 | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; save
done
