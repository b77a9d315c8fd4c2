# wpf: the value tiles' weights (the products' A halves) loaded and converted one tile ahead, before the tile's
# barrier, against the kept build (new): attention-bench FP8, FP16, BF16 at 1 and 8 rows, new wpf wpf new; attention ITs
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call10.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant new /tmp/b/gpu/lib/roofline-cuda.jar; variant wpf dist/packed/wpf-cuda.jar
i=0
bench() { # bench NAME KV DIM BATCHES CONTEXTS VARIANTS...
  local nm=$1 kv=$2 d=$3 bs=$4 cs=$5; shift 5
  for v in "$@"; do i=$((i+1))
    ROOFLINE_BUNDLE=/tmp/b/$v timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --head-dim $d --batch $bs --context $cs" > /tmp/o/attention-$nm-$i-$v.txt 2>&1
    echo "== $i $nm $v [$(( $(date +%s) - S )) s]"; grep -a -E "^(FP8|B=|BF16|FP16)" /tmp/o/attention-$nm-$i-$v.txt | grep -a "%" | cut -c1-50
  done; save
}
bench fp8 fp8 128 1,8 1024,8192,16384,32768 new wpf wpf new
bench fp16 fp16 128 1,8 1024,8192,16384,32768 new wpf wpf new
bench bf16 bf16 128 1,8 8192,32768 new wpf wpf new
ROOFLINE_BUNDLE=/tmp/b/wpf timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-wpf-att.txt 2>&1
echo "IT wpf: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-wpf-att.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘" /tmp/o/it-wpf-att.txt | head; save
echo "done [$(( $(date +%s) - S )) s]"
