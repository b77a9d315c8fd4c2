# call 8 (H200): SiLU x up in the FP16 gate/up product's epilogue at batch 1 (gpu) against 436423a (mo): the GEMV and
# decoder ITs, then FP16 batch 1 steps A/B twice
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call8.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
timeout 330 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.CheckpointWeightsIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted" /tmp/o/it.txt; grep -a -B2 -A10 "✘" /tmp/o/it.txt | head -40
variant mo dist/packed/mo-cuda.jar
for r in 1 2; do for v in gpu mo; do
  echo "=== variant $v round $r"
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 60 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1 --context 1024,32768 --format markdown"
done; done > /tmp/o/decode-ab.md 2>&1
save decode; grep -a "us/step\|=== variant" /tmp/o/decode-ab.md | sed 's/ (measured ceilings).*floor/ ... floor/'
