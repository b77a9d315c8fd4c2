# call 6 (H200): the merge launched in stream order after the tiled split pass (gpu) against the tiled attention with
# both launched programmatically (tiles, 2e95f6b) and bea434a's attention (base): decode steps and attention alone
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call6.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
variant base dist/packed/base-cuda.jar
variant tiles dist/packed/tiles-cuda.jar
for v in gpu tiles base; do
  echo "=== variant $v"
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 100 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3 --batch 8,16 --context 1024 --format markdown"
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 100 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1 --context 1024,32768 --format markdown"
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 100 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,NVFP4 --batch 8 --context 8192 --format markdown"
done > /tmp/o/decode-ab.md 2>&1
save decode; grep -a "us/step\|=== variant" /tmp/o/decode-ab.md | sed 's/ (measured ceilings).*floor/ ... floor/'
for v in gpu tiles base; do
  echo "=== variant $v"
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp16 --batch 1,8,32 --context 1024,8192,32768"
done > /tmp/o/attention-ab.txt 2>&1
save attention; grep -a "variant\|^B=" /tmp/o/attention-ab.txt
