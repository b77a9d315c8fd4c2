# call 183: issue 15: BF16 KV caches' attention on the tensor cores: qsh (q split by the four warps through shared
# memory, truncating split, no conversions) against qreg (every warp splits q by conversions) and the committed jar
# (base, CUDA cores); ITs on qsh; ncu of the split pass at 1 x 1k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call183.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for v in qreg qsh; do variant $v dist/packed/$v-cuda.jar; done
bun() { [ $1 = base ] && echo /tmp/b/gpu || echo /tmp/b/$1; }
ROOFLINE_BUNDLE=/tmp/b/qsh timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-qsh.txt 2>&1
echo "IT qsh: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-qsh.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"
save
i=0; for v in base qreg qsh qsh qreg base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-bf16-$i-$v.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]"; grep -a "^BF16" /tmp/o/attention-bf16-$i-$v.txt | cut -c1-60
done; save
for v in base qsh qsh base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16 --head-dim 64 --batch 1,8,32 --context 1024,8192,32768" > /tmp/o/attention-bf16-d64-$i-$v.txt 2>&1
  echo "== $i $v d64 [$(( $(date +%s) - S )) s]"; grep -a "^BF16" /tmp/o/attention-bf16-d64-$i-$v.txt | cut -c1-60
done; save
i=$((i+1)); timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp16 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-fp16-$i-base.txt 2>&1
echo "== $i base fp16 [$(( $(date +%s) - S )) s]"; grep -a "^B=" /tmp/o/attention-fp16-$i-base.txt | cut -c1-60; save
B=/tmp/b/qsh; MP=$(ls $B/lib/*.jar | grep -v -e '-tests\.jar$' -e junit -e assertj | tr '\n' ':')
timeout 100 ncu --target-processes all -k regex:decode_attention_split --launch-count 2 --section SpeedOfLight --section SchedulerStats --section WarpStateStats \
    $B/jre/bin/java --enable-native-access=dev.roofline.bindings,dev.roofline.cuda,dev.roofline.nvml -p "$MP" \
    --add-modules dev.roofline.cuda,dev.roofline.nvml -m dev.roofline.core/dev.roofline.core.cli.Main attention-bench --kv bf16 --batch 1 --context 1024 > /tmp/o/ncu-qsh-bf16-1024.txt 2>&1
grep -a -E "Duration|SM Active Cycles|Issued Warp" /tmp/o/ncu-qsh-bf16-1024.txt; save
