# call 15 (H200): FP16 batch 1 step, fused RoPE vs unfused, and two bounds on the attention's merge at 1k
# (-Droofline.experiment.skipMerge: no merge launch, o_proj reads stale input; -Droofline.experiment.minChunk=64)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call15.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
run() { echo "=== $1 ctx $2 round $r"; JAVA_TOOL_OPTIONS="$3" timeout 70 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1 --context $2 --format markdown"; }
for r in 1 2; do
  run fused 1024 "-Dx=1" >> /tmp/o/decode-ab.md 2>&1; save "fused $r"
  run unfused 1024 "-Droofline.experiment.unfusedRope=true" >> /tmp/o/decode-ab.md 2>&1; save "unfused $r"
  run skipMerge 1024 "-Droofline.experiment.skipMerge=true" >> /tmp/o/decode-ab.md 2>&1; save "skip $r"
  run chunk64 1024 "-Droofline.experiment.minChunk=64" >> /tmp/o/decode-ab.md 2>&1; save "c64 $r"
done
r=1; run fused 8192 "-Dx=1" >> /tmp/o/decode-ab.md 2>&1; run unfused 8192 "-Droofline.experiment.unfusedRope=true" >> /tmp/o/decode-ab.md 2>&1; save 8k
grep -a "us/step\|^=== \|^| qkv_proj\|^| attention" /tmp/o/decode-ab.md | sed 's/ (measured ceilings).*floor/ ... floor/'
