# call 180: issue 15: BF16 KV caches' attention on the tensor cores, three builds against the committed jar (base, the
# CUDA cores): new (q's lo in shared memory, the weights split by rounding), trunc (the weights split by truncation),
# qreg (trunc with q's lo in registers); FP16 caches for reference; DecodeKernelsIT attention tests on qreg and trunc
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call180.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for v in new trunc qreg; do variant $v dist/packed/$v-cuda.jar; done
bun() { [ $1 = base ] && echo /tmp/b/gpu || echo /tmp/b/$1; }
for v in qreg trunc; do
ROOFLINE_BUNDLE=/tmp/b/$v timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-$v.txt 2>&1
echo "IT $v: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-$v.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"
done; save
i=0; for v in base new trunc qreg qreg trunc new base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-bf16-$i-$v.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]"; grep -a "^BF16" /tmp/o/attention-bf16-$i-$v.txt | cut -c1-60
done; save
for v in base qreg qreg base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16 --head-dim 64 --batch 1,8,32 --context 8192,32768" > /tmp/o/attention-bf16-d64-$i-$v.txt 2>&1
  echo "== $i $v d64 [$(( $(date +%s) - S )) s]"; grep -a "^BF16" /tmp/o/attention-bf16-d64-$i-$v.txt | cut -c1-60
done; save
for v in base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp16 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-fp16-$i-$v.txt 2>&1
  echo "== $i $v fp16 [$(( $(date +%s) - S )) s]"; grep -a "^B=" /tmp/o/attention-fp16-$i-$v.txt | cut -c1-60
done; save
