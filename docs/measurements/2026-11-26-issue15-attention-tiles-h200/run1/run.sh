# call 1 (H200): the cp.async-tiled attention split pass against bea434a's (base): attention alone A/B twice, the
# decode step A/B at batch 1 x 1k / 32k, then the attention and decoder ITs on the new build
source dist/packed/common.sh
mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > /tmp/o/device.txt
variant base dist/packed/base-cuda.jar
for r in 1 2; do for v in gpu base; do
  echo "=== variant $v round $r"
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 100 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp16,fp8 --batch 1,8,32 --context 1024,8192,32768"
done; done > /tmp/o/attention-ab.txt 2>&1
for v in gpu base; do
  echo "=== variant $v"
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 120 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1 --context 1024,32768 --format markdown"
done > /tmp/o/decode-ab.md 2>&1
timeout 200 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.HostWeightsIT" > /tmp/o/it.txt 2>&1
tar -C /tmp -czf $OUT/call1.tgz o
grep -a "variant\|context=\|^B=" /tmp/o/attention-ab.txt | grep -v "  B=" | head -60
grep -a "us/step\|=== variant" /tmp/o/decode-ab.md
strip_ansi < /tmp/o/it.txt | grep -a "tests successful\|tests failed\|tests aborted" || tail -20 /tmp/o/it.txt; strip_ansi < /tmp/o/it.txt | grep -a -B2 -A12 "✘" | head -40
