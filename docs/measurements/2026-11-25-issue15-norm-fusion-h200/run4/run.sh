set -x
source dist/packed/common.sh
S=$(date +%s)
R=dist/packed/roofline.sh
mkdir -p /tmp/b/base && cp -r /tmp/b/gpu/jre /tmp/b/gpu/lib /tmp/b/base/ && cp dist/packed/roofline-cuda-base.jar /tmp/b/base/lib/roofline-cuda.jar
junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.MoeDecoderIT --select-class dev.roofline.cuda.kernels.MoeKernelsIT 2>&1 | strip_ansi > "$OUT/it.txt"
echo "it $(( $(date +%s) - S )) s"; grep -a "tests successful\|tests failed" "$OUT/it.txt"; grep -a -A3 "✘" "$OUT/it.txt" | head -20
for v in new base; do
  B=/tmp/b/gpu; [ $v = base ] && B=/tmp/b/base
  echo "=== variant $v" >> "$OUT/decode-ab.md"
  ROOFLINE_BUNDLE=$B timeout 100 bash $R decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4 --batch 1 --context 1024 --format markdown >> "$OUT/decode-ab.md" 2>&1
done
grep -a "=== variant\|us/step" "$OUT/decode-ab.md" | cut -c1-190
