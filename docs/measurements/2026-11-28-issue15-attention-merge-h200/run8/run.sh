# call 8: ex (the FP8 tensor-core split pass takes the softmax's exponentials where its values' product reads the
# logits, their sums added in its epilogue, instead of a pass over s_p and a barrier; sm_90a fatbin of 44edbd3 with
# ex.diff) against 44edbd3 (new): attention-bench FP8 at 1, 8 and 32 rows, new ex ex new; attention ITs on ex;
# Llama-3-8B FP16 weights with an FP8 cache at 1 and 8 rows x 8k, new ex
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call8.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant new /tmp/b/gpu/lib/roofline-cuda.jar; variant ex dist/packed/ex-cuda.jar
i=0
bench() { # bench NAME KV DIM BATCHES CONTEXTS VARIANTS...
  local nm=$1 kv=$2 d=$3 bs=$4 cs=$5; shift 5
  for v in "$@"; do i=$((i+1))
    ROOFLINE_BUNDLE=/tmp/b/$v timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --head-dim $d --batch $bs --context $cs" > /tmp/o/attention-$nm-$i-$v.txt 2>&1
    echo "== $i $nm $v [$(( $(date +%s) - S )) s]"; grep -a -E "^(FP8|B=|BF16)" /tmp/o/attention-$nm-$i-$v.txt | grep -a "%" | cut -c1-60
  done; save
}
bench fp8 fp8 128 1,8,32 1024,8192,16384,32768 new ex ex new
ROOFLINE_BUNDLE=/tmp/b/ex timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-ex-att.txt 2>&1
echo "IT ex: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-ex-att.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘" /tmp/o/it-ex-att.txt | head; save
for v in new ex; do i=$((i+1))
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 120 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --kv fp8 --batch 1,8 --context 8192" > /tmp/o/decode-$i-$v-fp8kv.txt 2>&1
  echo "$i $v fp8kv: $(grep -a 'us/step' /tmp/o/decode-$i-$v-fp8kv.txt | cut -c1-110 | tr '\n' ' ') [$(( $(date +%s) - S )) s]"
  save
done
echo "done [$(( $(date +%s) - S )) s]"
