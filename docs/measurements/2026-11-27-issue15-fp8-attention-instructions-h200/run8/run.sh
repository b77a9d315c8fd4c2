# call 8: c64 (the split rule's chunks whole multiples of 64 tokens and at least 64: DecodeKernels.ATTENTION_CHUNK_STEP
# and ATTENTION_MIN_CHUNK 64, Java only, the FP8 kernels' tile) against the final build (new): FP8 and FP16
# attention-bench at 1, 8 and 32 rows, new c64 c64 new; attention ITs on c64
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call8.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant new /tmp/b/gpu/lib/roofline-cuda.jar; variant c64 dist/packed/c64-cuda.jar
i=0
bench() { # bench NAME KV DIM BATCHES CONTEXTS VARIANTS...
  local nm=$1 kv=$2 d=$3 bs=$4 cs=$5; shift 5
  for v in "$@"; do i=$((i+1))
    ROOFLINE_BUNDLE=/tmp/b/$v timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --head-dim $d --batch $bs --context $cs" > /tmp/o/attention-$nm-$i-$v.txt 2>&1
    echo "== $i $nm $v [$(( $(date +%s) - S )) s]"; grep -a -E "^(FP|BF)" /tmp/o/attention-$nm-$i-$v.txt | cut -c1-60
  done; save
}
bench fp8 fp8 128 1,8,32 1024,8192,16384,32768 new c64 c64 new
bench fp16 fp16 128 1,8 1024,8192,16384,32768 new c64
ROOFLINE_BUNDLE=/tmp/b/c64 timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-c64-att.txt 2>&1
echo "IT c64: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-c64-att.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘" /tmp/o/it-c64-att.txt | head; save
echo "done [$(( $(date +%s) - S )) s]"
