# call 7: km (the softmax's max taken from each lane's logits as the tensor-core split pass writes them, reduced over
# the warp before the barrier that follows the keys, instead of a pass over s_p and a barrier; sm_90a fatbin of the
# tree with km.diff) against the kept build (new): attention-bench FP8 and FP16 at 1 and 8 rows, new km km new;
# attention ITs on km
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call7.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant new /tmp/b/gpu/lib/roofline-cuda.jar; variant km dist/packed/km-cuda.jar
i=0
bench() { # bench NAME KV DIM BATCHES CONTEXTS VARIANTS...
  local nm=$1 kv=$2 d=$3 bs=$4 cs=$5; shift 5
  for v in "$@"; do i=$((i+1))
    ROOFLINE_BUNDLE=/tmp/b/$v timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --head-dim $d --batch $bs --context $cs" > /tmp/o/attention-$nm-$i-$v.txt 2>&1
    echo "== $i $nm $v [$(( $(date +%s) - S )) s]"; grep -a -E "^(FP8|B=|BF16)" /tmp/o/attention-$nm-$i-$v.txt | grep -a "%" | cut -c1-50
  done; save
}
bench fp8 fp8 128 1,8 1024,8192,16384,32768 new km km new
bench fp16 fp16 128 1,8 1024,8192,16384,32768 new km km new
ROOFLINE_BUNDLE=/tmp/b/km timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-km-att.txt 2>&1
echo "IT km: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-km-att.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘" /tmp/o/it-km-att.txt | head; save
echo "done [$(( $(date +%s) - S )) s]"
