# call 190: issue 15 on an H100: the final BF16-cache build (the bundle of 5deb922, new) against
# 5633d5c's fatbin in the same jar (base, the CUDA cores); DecodeKernelsIT attention tests on new
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call190.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar
bun() { [ $1 = new ] && echo /tmp/b/gpu || echo /tmp/b/$1; }
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it.txt 2>&1
echo "IT: $(grep -a -E 'tests (successful|failed)' /tmp/o/it.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; save
i=0; for v in base new new base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-bf16-$i-$v.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]"; grep -a "^BF16" /tmp/o/attention-bf16-$i-$v.txt | cut -c1-60
done; save
for v in base new; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16 --head-dim 64 --batch 1,8,32 --context 1024,8192,32768" > /tmp/o/attention-bf16-d64-$i-$v.txt 2>&1
  echo "== $i $v d64 [$(( $(date +%s) - S )) s]"; grep -a "^BF16" /tmp/o/attention-bf16-d64-$i-$v.txt | cut -c1-60
done; save
i=$((i+1)); timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp16 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-fp16-$i-new.txt 2>&1
echo "== $i fp16 [$(( $(date +%s) - S )) s]"; grep -a "^B=" /tmp/o/attention-fp16-$i-new.txt | cut -c1-60; save
