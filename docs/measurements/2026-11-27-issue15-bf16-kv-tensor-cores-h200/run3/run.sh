# call 181: SASS of the FP16 and BF16 (qreg build) attention split kernels, head size 128, groups of 4
mkdir -p /tmp/o; C=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1); echo "cuobjdump: $C"
for k in decode_attention_split_d128_q4_f16 decode_attention_split_d128_q4_bf16 decode_attention_split_d128_q1_f16 decode_attention_split_d128_q1_bf16; do
  $C -sass -fun $k dist/packed/qreg.fatbin > /tmp/o/$k.sass 2>&1; echo "$k $(grep -c '/\*[0-9a-f]*\*/' /tmp/o/$k.sass)"
done
tar -C /tmp -czf $OUT/call181.tgz o
# call 182: Nsight Compute on the attention split pass, FP16 (committed) and BF16 (qreg build) caches, batch 1 x 1k and 8k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
variant qreg dist/packed/qreg-cuda.jar
nr() { # nr OUT ARGS...: roofline under ncu
  local B=/tmp/b/qreg; local o=$1; shift
  local MP=$(ls $B/lib/*.jar | grep -v -e '-tests\.jar$' -e junit -e assertj | tr '\n' ':')
  timeout 150 ncu --target-processes all -k regex:decode_attention_split --launch-count 2 --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats \
    $B/jre/bin/java --enable-native-access=dev.roofline.bindings,dev.roofline.cuda,dev.roofline.nvml -p "$MP" \
    --add-modules dev.roofline.cuda,dev.roofline.nvml -m dev.roofline.core/dev.roofline.core.cli.Main "$@" > /tmp/o/$o 2>&1
  echo "$o rc $? [$(( $(date +%s) - S )) s]"
  grep -a -E "decode_attention_split|Duration|Memory Throughput|Achieved Occupancy|Registers Per|Warp Cycles Per Issued|Issued Warp|No Eligible|Stall|Block Limit" /tmp/o/$o | head -40
}
for kv in fp16 bf16; do for c in 1024 8192; do nr ncu-$kv-$c.txt attention-bench --kv $kv --batch 1 --context $c; done; done
tar -C /tmp -czf $OUT/call182.tgz o
