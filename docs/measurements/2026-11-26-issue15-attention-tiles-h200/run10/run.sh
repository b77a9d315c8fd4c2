# call 10 (H200): SiLU x up in the gate/up epilogue with each warp on two adjacent gate rows and the two matching up
# rows (gpu: 1 chunk a row in flight; gpu-u2: 2) against fccede6 (head): the kernel's ITs and the decoder's, then FP16
# batch 1 steps A/B twice
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call10.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
timeout 150 bash -c "source dist/packed/common.sh; junit --select-method 'dev.roofline.cuda.kernels.GemvKernelsIT#siluInTheEpilogueGivesTheSeparateKernelsBits(boolean, int)' --select-method 'dev.roofline.cuda.kernels.GemvKernelsIT#siluInTheEpilogueTakesRowMajorFp16WeightsOfEvenRowsAndNoResidualAdd' --select-class dev.roofline.cuda.decode.DenseDecoderIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted" /tmp/o/it.txt; grep -a -B2 -A10 "✘" /tmp/o/it.txt | head -30
variant head dist/packed/head-cuda.jar
D="decode llama-3-8b --weights FP16 --batch 1 --context 1024,32768 --format markdown"
for r in 1 2; do
  echo "=== variant gpu round $r"; timeout 60 bash -c "source dist/packed/common.sh; roofline $D"
  echo "=== variant gpu-u2 round $r"; JAVA_TOOL_OPTIONS=-Droofline.siluSuffix=_u2 timeout 60 bash -c "source dist/packed/common.sh; roofline $D"
  echo "=== variant head round $r"; ROOFLINE_BUNDLE=/tmp/b/head timeout 60 bash -c "source dist/packed/common.sh; roofline $D"
done > /tmp/o/decode-ab.md 2>&1
save decode; grep -a "us/step\|=== variant" /tmp/o/decode-ab.md | sed 's/ (measured ceilings).*floor/ ... floor/'
grep -a "=== variant\|gate_up\|silu" /tmp/o/decode-ab.md | head -20
