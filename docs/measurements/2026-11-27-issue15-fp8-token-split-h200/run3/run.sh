# call 194: issue 15: tk2 (tk + the ring's copies from per-thread offsets and counted slots, for every cache type; FP8
# logits stored from one address) against tk and HEAD's sm_90a fatbin (merged): attention ITs on tk2; attention-bench
# FP8 / FP16 / BF16 at head size 128 and FP8 at 64; Nsight Compute of tk2 FP8 at 8 x 32k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call194.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for v in merged tk tk2; do variant $v dist/packed/$v-cuda.jar; done
ROOFLINE_BUNDLE=/tmp/b/tk2 timeout 200 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-tk2.txt 2>&1
echo "IT tk2: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-tk2.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘" /tmp/o/it-tk2.txt | head -20; save
i=0
bench() { # bench NAME KV DIM VARIANTS...
  local nm=$1 kv=$2 d=$3; shift 3
  for v in "$@"; do i=$((i+1))
    ROOFLINE_BUNDLE=/tmp/b/$v timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --head-dim $d --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-$nm-$i-$v.txt 2>&1
    echo "== $i $nm $v [$(( $(date +%s) - S )) s]"; grep -a -E "^(FP|BF)" /tmp/o/attention-$nm-$i-$v.txt | cut -c1-60
  done; save
}
bench fp8 fp8 128 merged tk tk2 tk2 tk merged
bench fp16 fp16 128 merged tk2 tk2 merged
bench bf16 bf16 128 merged tk2 tk2 merged
bench fp8d64 fp8 64 merged tk2 tk2 merged
for v in tk2; do
  B=/tmp/b/$v; MP=$(ls $B/lib/*.jar | grep -v -e '-tests\.jar$' -e junit -e assertj | tr '\n' ':')
  timeout 150 ncu --target-processes all -k regex:decode_attention_split --launch-skip 3 --launch-count 1 --set full --import-source no -o /tmp/o/ncu-$v \
    $B/jre/bin/java --enable-native-access=dev.roofline.bindings,dev.roofline.cuda,dev.roofline.nvml -p "$MP" \
    --add-modules dev.roofline.cuda,dev.roofline.nvml -m dev.roofline.core/dev.roofline.core.cli.Main attention-bench --kv fp8 --batch 8 --context 32768 > /tmp/o/ncu-$v.log 2>&1
  echo "ncu $v rc $? [$(( $(date +%s) - S )) s]"
  ncu --import /tmp/o/ncu-$v.ncu-rep --page details > /tmp/o/ncu-$v-details.txt 2>&1
  ncu --import /tmp/o/ncu-$v.ncu-rep --page source --csv --print-source sass > /tmp/o/ncu-$v-sass.csv 2>&1
  rm -f /tmp/o/ncu-$v.ncu-rep
  grep -a -E "Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Warp Cycles Per Issued|Issue Slots Busy|No Eligible|Executed Ipc" /tmp/o/ncu-$v-details.txt | head -20
  save
done
