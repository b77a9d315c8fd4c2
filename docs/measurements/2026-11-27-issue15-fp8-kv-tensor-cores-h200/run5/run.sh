# call 177: issue 15: FP8 caches' keys read by ldmatrix (4 pieces a lane in one instruction) instead of one 4-byte load
# a piece (new: 490a829's bundle with an sm_90a-only fatbin of the variant; base: 490a829's bundle): DecodeKernelsIT's
# attention tests on new; attention-bench fp8 at 1, 8, 32 rows x 8k, 16k, 32k base new new base
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant new dist/packed/ldsm-cuda.jar
bun() { [ $1 = base ] && echo /tmp/b/gpu || echo /tmp/b/new; }
ROOFLINE_BUNDLE=/tmp/b/new timeout 100 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it.txt 2>&1
echo "IT: $(grep -a -E 'tests (successful|failed)' /tmp/o/it.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"
i=0; for v in base new new base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp8 --batch 1,8,32 --context 8192,16384,32768" > /tmp/o/attention-$i-$v.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]"; grep -a "^FP8" /tmp/o/attention-$i-$v.txt | cut -c1-60
done
tar -C /tmp -czf $OUT/call177.tgz o
