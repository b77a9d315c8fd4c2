# call 188: issue 15: BF16 caches, q split by every warp itself by truncation, in registers (qtr, no shared memory or
# barrier) against the committed kernel (qsh: the four warps split q through shared memory); ITs on qtr
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call188.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant qtr dist/packed/qtr-cuda.jar
bun() { [ $1 = qsh ] && echo /tmp/b/gpu || echo /tmp/b/$1; }
ROOFLINE_BUNDLE=/tmp/b/qtr timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*Bf16AndFp8.*'" > /tmp/o/it-qtr.txt 2>&1
echo "IT qtr: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-qtr.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; save
i=0; for v in qsh qtr qtr qsh; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-bf16-$i-$v.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]"; grep -a "^BF16" /tmp/o/attention-bf16-$i-$v.txt | cut -c1-60
done; save
for v in qsh qtr; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16 --head-dim 64 --batch 1,8,32 --context 1024,8192,32768" > /tmp/o/attention-bf16-d64-$i-$v.txt 2>&1
  echo "== $i $v d64 [$(( $(date +%s) - S )) s]"; grep -a "^BF16" /tmp/o/attention-bf16-d64-$i-$v.txt | cut -c1-60
done; save
