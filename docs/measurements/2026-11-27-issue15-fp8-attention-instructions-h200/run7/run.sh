# call 7: b6 (the FP8 split kernels at head size 128, groups up to 4, built for 6 blocks an SM; the split rule sizing
# every group of up to 4 heads for 6 blocks an SM) against the final build (new): attention ITs on b6; FP8
# attention-bench at 1, 8 and 32 rows, new b6 b6 new
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call7.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant new /tmp/b/gpu/lib/roofline-cuda.jar; variant b6 dist/packed/b6-cuda.jar
i=0
bench() { # bench NAME KV DIM BATCHES CONTEXTS VARIANTS...
  local nm=$1 kv=$2 d=$3 bs=$4 cs=$5; shift 5
  for v in "$@"; do i=$((i+1))
    ROOFLINE_BUNDLE=/tmp/b/$v timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --head-dim $d --batch $bs --context $cs" > /tmp/o/attention-$nm-$i-$v.txt 2>&1
    echo "== $i $nm $v [$(( $(date +%s) - S )) s]"; grep -a -E "^(FP|BF)" /tmp/o/attention-$nm-$i-$v.txt | cut -c1-60
  done; save
}
bench fp8 fp8 128 1,8,32 1024,8192,16384,32768 new b6 b6 new
ROOFLINE_BUNDLE=/tmp/b/b6 timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-b6-att.txt 2>&1
echo "IT b6: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-b6-att.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘" /tmp/o/it-b6-att.txt | head; save
echo "done [$(( $(date +%s) - S )) s]"
