# call 90: Nsight Compute on the batch-1 attention at 16k and 8k on the tensor-core build (clocks not locked): each
# kernel's duration, DRAM bytes and DRAM throughput, beside the same-bytes read kernel attention-bench times
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call90.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
export PATH=$PATH:/usr/local/cuda/bin
B=/tmp/b/gpu; MP=$(ls $B/lib/*.jar | grep -v -e '-tests\.jar$' -e junit -e assertj | tr '\n' ':')
for c in 16384 8192; do
  timeout 120 ncu --target-processes all --clock-control none -k regex:"decode_attention|stream_read" --launch-skip 60 --launch-count 6 --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active $B/jre/bin/java --enable-native-access=dev.roofline.bindings,dev.roofline.cuda,dev.roofline.nvml -p "$MP" --add-modules dev.roofline.cuda,dev.roofline.nvml -m dev.roofline.core/dev.roofline.core.cli.Main attention-bench --batch 1 --context $c > /tmp/o/ncu-attention-1x$c.txt 2>&1
  echo ncu $c rc=$?; save ncu-$c
done
grep -a -E "^  [a-z_0-9]+ \(|gpu__time|dram__|sm__warps" /tmp/o/ncu-attention-1x16384.txt | head -40
