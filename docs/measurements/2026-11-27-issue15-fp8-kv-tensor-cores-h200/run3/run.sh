# call 175: issue 15: FP8 KV caches at head size 64 on the tensor cores too (new: the GPU bundle of 46ef481
# (all-architecture fatbin); base: 6d08527's roofline-cuda.jar, head size 64 on the CUDA cores): DecodeKernelsIT and DenseDecoderIT on
# new; attention-bench fp8 at head size 64 (32 heads on 8) base new new base; fp8 at 128 on new
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call175.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar
bun() { [ $1 = base ] && echo /tmp/b/base || echo /tmp/b/gpu; }
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT" > /tmp/o/it.txt 2>&1
echo "IT: $(grep -a -E 'tests (successful|failed)' /tmp/o/it.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"
grep -a -E "FP8_E4M3 cache" /tmp/o/it.txt | sed -r 's/\x1B\[[0-9;]*[mK]//g' | head -8; save
i=0; for v in base new new base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp8 --head-dim 64 --heads 32 --kv-heads 8 --batch 1,8,32 --context 1024,8192,32768" > /tmp/o/attention-d64-$i-$v.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]"; grep -a "^FP8" /tmp/o/attention-d64-$i-$v.txt | cut -c1-60
done; save
timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp8 --batch 1,8,32 --context 8192,32768" > /tmp/o/attention-d128-new.txt 2>&1
grep -a "^FP8" /tmp/o/attention-d128-new.txt | cut -c1-60; save
