# call 1 (session 30): SASS of the FP8 split kernel (base, h1: cvt of the upper pair from the register's upper half),
# Nsight Compute per-instruction of base at FP8 1 x 32k; attention-bench FP8 base h1 h1 base
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call1.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base /tmp/b/gpu/lib/roofline-cuda.jar; variant h1 dist/packed/h1-cuda.jar
CUOBJ=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1); echo "cuobjdump: $CUOBJ"
for v in base h1; do
  (cd /tmp && unzip -o -q /tmp/b/$v/lib/roofline-cuda.jar dev/roofline/cuda/kernels/gemv.fatbin && mv dev/roofline/cuda/kernels/gemv.fatbin /tmp/o/$v.fatbin)
  $CUOBJ -sass -arch sm_90a -fun decode_attention_split_d128_q4_e4m3 /tmp/o/$v.fatbin > /tmp/o/sass-$v-q4.txt 2>&1
  $CUOBJ -sass -arch sm_90a -fun decode_attention_split_d128_q4_f16 /tmp/o/$v.fatbin > /tmp/o/sass-$v-q4-f16.txt 2>&1
  wc -l /tmp/o/sass-$v-q4.txt; rm /tmp/o/$v.fatbin
done; save
i=0
bench() { # bench NAME KV DIM BATCHES CONTEXTS VARIANTS...
  local nm=$1 kv=$2 d=$3 bs=$4 cs=$5; shift 5
  for v in "$@"; do i=$((i+1))
    ROOFLINE_BUNDLE=/tmp/b/$v timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --head-dim $d --batch $bs --context $cs" > /tmp/o/attention-$nm-$i-$v.txt 2>&1
    echo "== $i $nm $v [$(( $(date +%s) - S )) s]"; grep -a -E "^(FP|BF)" /tmp/o/attention-$nm-$i-$v.txt | cut -c1-70
  done; save
}
bench fp8 fp8 128 1,8 1024,8192,16384,32768 base h1 h1 base
for v in base; do
  B=/tmp/b/$v; MP=$(ls $B/lib/*.jar | grep -v -e '-tests\.jar$' -e junit -e assertj | tr '\n' ':')
  for ctx in 32768; do
  timeout 150 ncu --target-processes all -k regex:decode_attention_split --launch-skip 3 --launch-count 1 --set full --import-source no -o /tmp/o/ncu-$v-$ctx \
    $B/jre/bin/java --enable-native-access=dev.roofline.bindings,dev.roofline.cuda,dev.roofline.nvml -p "$MP" \
    --add-modules dev.roofline.cuda,dev.roofline.nvml -m dev.roofline.core/dev.roofline.core.cli.Main attention-bench --kv fp8 --batch 1 --context $ctx > /tmp/o/ncu-$v-$ctx.log 2>&1
  echo "ncu $v $ctx rc $? [$(( $(date +%s) - S )) s]"
  ncu --import /tmp/o/ncu-$v-$ctx.ncu-rep --page details > /tmp/o/ncu-$v-$ctx-details.txt 2>&1
  ncu --import /tmp/o/ncu-$v-$ctx.ncu-rep --page source --csv --print-source sass > /tmp/o/ncu-$v-$ctx-sass.csv 2>&1
  rm -f /tmp/o/ncu-$v-$ctx.ncu-rep
  grep -a -E "Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Warp Cycles Per Issued|Issue Slots Busy|No Eligible|Executed Ipc" /tmp/o/ncu-$v-$ctx-details.txt | head -20
  done; save
done
echo "done [$(( $(date +%s) - S )) s]"
