# call 191: issue 15: the BF16 q split moved into the shared q-loading loop of the tensor-core paths (merged: one loop,
# PTX of the BF16 split passes reordered) against the bundle of 5deb922 (cur); BF16/FP8 attention ITs on merged
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call191.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant merged dist/packed/merged-cuda.jar
bun() { [ $1 = cur ] && echo /tmp/b/gpu || echo /tmp/b/$1; }
ROOFLINE_BUNDLE=/tmp/b/merged timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-merged.txt 2>&1
echo "IT merged: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-merged.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; save
i=0; for v in cur merged merged cur; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-bf16-$i-$v.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]"; grep -a "^BF16" /tmp/o/attention-bf16-$i-$v.txt | cut -c1-60
done; save
for v in cur merged; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16 --head-dim 64 --batch 1,8,32 --context 1024,8192,32768" > /tmp/o/attention-bf16-d64-$i-$v.txt 2>&1
  echo "== $i $v d64 [$(( $(date +%s) - S )) s]"; grep -a "^BF16" /tmp/o/attention-bf16-d64-$i-$v.txt | cut -c1-60
done; save
