# call 16 (H200): FP16 batch 1 x 1k on f4db535 + experiment hooks: each launch edge of the step in stream order
# (-Droofline.experiment.ordered=<kernel prefix>[:grid]) against all programmatic, two rounds in one call
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call16.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
run() { echo "=== $1 round $r"; JAVA_TOOL_OPTIONS="-Droofline.experiment.ordered=$1" timeout 70 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1 --context 1024 --format markdown"; }
for r in 1 2; do
  for v in none decode_qkv_rope decode_attention_split gemv_fp16_f16_m1:512 gemv_fp16_f16_m1:3584 decode_silu; do
    run $v >> /tmp/o/decode-ab.md 2>&1; save "$v $r"
  done
done
grep -a "us/step\|^=== " /tmp/o/decode-ab.md | sed 's/ (measured ceilings).*floor/ ... floor/'
