# call 198: issue 15 on an H100: the build of e625d50 (new) against 61bdaf0's fatbin in the same bundle (old): attention
# ITs; attention-bench FP8 and FP16 at 1/8/32 x 1k-32k (old new new old)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call198.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant old dist/packed/old-cuda.jar
bun() { [ $1 = new ] && echo /tmp/b/gpu || echo /tmp/b/$1; }
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it.txt 2>&1
echo "IT: $(grep -a -E 'tests (successful|failed)' /tmp/o/it.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a "✘" /tmp/o/it.txt | head; save
i=0
for kv in fp8 fp16; do for v in old new new old; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-$kv-$i-$v.txt 2>&1
  echo "== $i $kv $v [$(( $(date +%s) - S )) s]"; grep -a -E "B=1 context" /tmp/o/attention-$kv-$i-$v.txt | grep -v TFLOPS | cut -c1-70
done; save; done
