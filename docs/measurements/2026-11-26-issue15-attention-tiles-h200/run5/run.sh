# call 5 (H200): FP8 weights at batch 8/16 x 1k, the tiled attention (gpu) against bea434a's (base), programmatic and
# ordered launches, twice
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call5.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
variant base dist/packed/base-cuda.jar
for r in 1 2; do for v in gpu base; do
  echo "=== variant $v round $r"
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 120 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3,FP16 --batch 8,16 --context 1024 --launch programmatic,ordered --format markdown"
done; done > /tmp/o/decode-fp8.md 2>&1
save decode; grep -a "us/step\|=== variant" /tmp/o/decode-fp8.md | sed 's/ (measured ceilings).*//'
