# call 6 (H100): the session's final build (9c99062, "new") against 7923839's fatbin in the same jar ("old"): attention
# ITs on new; attention-bench FP8 / FP16 / BF16 at head size 128, 1 and 8 rows, old new new old
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call6.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant new /tmp/b/gpu/lib/roofline-cuda.jar; variant old dist/packed/old-cuda.jar
ROOFLINE_BUNDLE=/tmp/b/new timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-new-att.txt 2>&1
echo "IT new: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-new-att.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘" /tmp/o/it-new-att.txt | head; save
i=0
bench() { # bench NAME KV DIM BATCHES CONTEXTS VARIANTS...
  local nm=$1 kv=$2 d=$3 bs=$4 cs=$5; shift 5
  for v in "$@"; do i=$((i+1))
    ROOFLINE_BUNDLE=/tmp/b/$v timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --head-dim $d --batch $bs --context $cs" > /tmp/o/attention-$nm-$i-$v.txt 2>&1
    echo "== $i $nm $v [$(( $(date +%s) - S )) s]"
  done; save
}
bench fp8 fp8 128 1,8 1024,8192,16384,32768 old new new old
bench fp16 fp16 128 1,8 1024,8192,16384,32768 old new new old
bench bf16 bf16 128 1,8 1024,8192,16384,32768 old new new old
echo "done [$(( $(date +%s) - S )) s]"
