# call 2: FP8 split kernel variants h1 (cvt of the upper pair), h2 (+ whole tiles copied without zero fill), h3 (+
# hoisted s_p addresses, ldmatrix addresses by XOR, logits stored past n); SASS, attention-bench, ITs on h3, ncu h3
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call2.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base /tmp/b/gpu/lib/roofline-cuda.jar; for v in h1 h2 h3; do variant $v dist/packed/$v-cuda.jar; done
for v in base h1 h2 h3; do
  python3 -c "import zipfile,sys; open('/tmp/o/$v.fatbin','wb').write(zipfile.ZipFile('/tmp/b/$v/lib/roofline-cuda.jar').read('dev/roofline/cuda/kernels/gemv.fatbin'))"
  cuobjdump -sass -arch sm_90a -fun decode_attention_split_d128_q4_e4m3 /tmp/o/$v.fatbin > /tmp/o/sass-$v-q4.txt 2>&1
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
bench fp8 fp8 128 1,8,32 1024,8192,16384,32768 base h1 h2 h3 h3 h2 h1 base
ROOFLINE_BUNDLE=/tmp/b/h3 timeout 200 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-h3.txt 2>&1
echo "IT h3: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-h3.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘" /tmp/o/it-h3.txt | head -20; save
for v in h3; do
  B=/tmp/b/$v; MP=$(ls $B/lib/*.jar | grep -v -e '-tests\.jar$' -e junit -e assertj | tr '\n' ':')
  for ctx in 32768; do
  timeout 150 ncu --target-processes all -k regex:decode_attention_split --launch-skip 3 --launch-count 1 --set full --import-source no -o /tmp/o/ncu-$v-$ctx \
    $B/jre/bin/java --enable-native-access=dev.roofline.bindings,dev.roofline.cuda,dev.roofline.nvml -p "$MP" \
    --add-modules dev.roofline.cuda,dev.roofline.nvml -m dev.roofline.core/dev.roofline.core.cli.Main attention-bench --kv fp8 --batch 1 --context $ctx > /tmp/o/ncu-$v-$ctx.log 2>&1
  echo "ncu $v $ctx rc $? [$(( $(date +%s) - S )) s]"
  ncu --import /tmp/o/ncu-$v-$ctx.ncu-rep --page details > /tmp/o/ncu-$v-$ctx-details.txt 2>&1
  ncu --import /tmp/o/ncu-$v-$ctx.ncu-rep --page source --csv --print-source sass > /tmp/o/ncu-$v-$ctx-sass.csv 2>&1
  rm -f /tmp/o/ncu-$v-$ctx.ncu-rep
  grep -a -E "Duration|DRAM Throughput|Registers Per|Warp Cycles Per Issued|Issue Slots Busy|No Eligible" /tmp/o/ncu-$v-$ctx-details.txt | head -20
  done; save
done
echo "done [$(( $(date +%s) - S )) s]"
