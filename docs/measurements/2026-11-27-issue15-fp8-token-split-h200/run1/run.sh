# call 192: issue 15: FP8 KV attention at head size 128: two logit groups a warp (g2), a ring of 4 tiles (st4) against
# HEAD's sm_90a fatbin (merged); Nsight Compute of the FP8 split pass at 8 x 32k (merged, g2)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call192.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for v in merged g2 st4; do variant $v dist/packed/$v-cuda.jar; done
i=0; for v in merged g2 st4 st4 g2 merged; do i=$((i+1))
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp8 --batch 1,8,32 --context 8192,16384,32768" > /tmp/o/attention-fp8-$i-$v.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]"; grep -a "^FP8" /tmp/o/attention-fp8-$i-$v.txt | cut -c1-60
done; save
for v in merged g2; do
  B=/tmp/b/$v; MP=$(ls $B/lib/*.jar | grep -v -e '-tests\.jar$' -e junit -e assertj | tr '\n' ':')
  timeout 150 ncu --target-processes all -k regex:decode_attention_split --launch-skip 3 --launch-count 1 --set full --import-source no -o /tmp/o/ncu-$v \
    $B/jre/bin/java --enable-native-access=dev.roofline.bindings,dev.roofline.cuda,dev.roofline.nvml -p "$MP" \
    --add-modules dev.roofline.cuda,dev.roofline.nvml -m dev.roofline.core/dev.roofline.core.cli.Main attention-bench --kv fp8 --batch 8 --context 32768 > /tmp/o/ncu-$v.log 2>&1
  echo "ncu $v rc $? [$(( $(date +%s) - S )) s]"
  ncu --import /tmp/o/ncu-$v.ncu-rep --page details > /tmp/o/ncu-$v-details.txt 2>&1
  ncu --import /tmp/o/ncu-$v.ncu-rep --page raw --csv > /tmp/o/ncu-$v-raw.csv 2>&1
  ncu --import /tmp/o/ncu-$v.ncu-rep --page source --csv --print-source sass > /tmp/o/ncu-$v-sass.csv 2>&1
  grep -a -E "Duration|Memory Throughput|DRAM Throughput|Achieved Occupancy|Registers Per|Warp Cycles Per Issued|Issue Slots Busy|No Eligible|Executed Ipc" /tmp/o/ncu-$v-details.txt | head -20
  save
done
