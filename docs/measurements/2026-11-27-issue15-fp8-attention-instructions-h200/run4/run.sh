# call 4: the committed build (7e75168, "new") against 7923839's fatbin (old): attention ITs, FP8 attention-bench;
# f1 (FP16/BF16 tensor-core products: one XOR an ldmatrix address, the lane's s_p address kept, logits stored past n)
# against new: attention ITs on f1, attention-bench FP16 / BF16 at head size 128 and FP16 at 64
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call4.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant new /tmp/b/gpu/lib/roofline-cuda.jar; for v in old f1; do variant $v dist/packed/$v-cuda.jar; done
for v in new f1; do
ROOFLINE_BUNDLE=/tmp/b/$v timeout 120 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-$v-att.txt 2>&1
echo "IT $v attention: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-$v-att.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘" /tmp/o/it-$v-att.txt | head; save
done
i=0
bench() { # bench NAME KV DIM BATCHES CONTEXTS VARIANTS...
  local nm=$1 kv=$2 d=$3 bs=$4 cs=$5; shift 5
  for v in "$@"; do i=$((i+1))
    ROOFLINE_BUNDLE=/tmp/b/$v timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --head-dim $d --batch $bs --context $cs" > /tmp/o/attention-$nm-$i-$v.txt 2>&1
    echo "== $i $nm $v [$(( $(date +%s) - S )) s]"; grep -a -E "^(FP|BF)" /tmp/o/attention-$nm-$i-$v.txt | cut -c1-60
  done; save
}
bench fp8 fp8 128 1,8 1024,8192,16384,32768 old new
bench fp16 fp16 128 1,8,32 1024,8192,16384,32768 new f1 f1 new
bench bf16 bf16 128 1,8 1024,8192,16384,32768 new f1 f1 new
bench fp16d64 fp16 64 1,8 1024,8192,32768 new f1
echo "done [$(( $(date +%s) - S )) s]"
