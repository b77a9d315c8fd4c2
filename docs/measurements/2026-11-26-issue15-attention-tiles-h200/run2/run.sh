# call 2 (H200): the tiled attention with and without every kernel's carveout preferred to max shared memory
# (-Droofline.carveout=100), with chunks up to 512 tokens (c512), and bea434a's attention (base): attention alone and
# decode steps
source dist/packed/common.sh
mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > /tmp/o/device.txt
variant base dist/packed/base-cuda.jar
variant c512 dist/packed/c512-cuda.jar
run_v() { # NAME BUNDLE CARVEOUT(or -) COMMAND...
  local name=$1 b=$2 c=$3; shift 3
  echo "=== variant $name"
  if [ "$c" = "-" ]; then ROOFLINE_BUNDLE=/tmp/b/$b timeout 150 bash -c "source dist/packed/common.sh; roofline $*"
  else JAVA_TOOL_OPTIONS=-Droofline.carveout=$c ROOFLINE_BUNDLE=/tmp/b/$b timeout 150 bash -c "source dist/packed/common.sh; roofline $*"; fi
}
A="attention-bench --kv fp16 --batch 1,8,32 --context 1024,8192,32768"
for r in 1 2; do
  run_v new gpu - $A; run_v new-c100 gpu 100 $A; run_v c512 c512 - $A; run_v c512-c100 c512 100 $A; run_v base base - $A
done > /tmp/o/attention-ab.txt 2>&1
D="decode llama-3-8b --weights FP16 --batch 1 --context 1024,32768 --format markdown"
D8="decode llama-3-8b --weights FP16 --batch 8 --context 8192 --format markdown"
{ run_v new gpu - $D; run_v new-c100 gpu 100 $D; run_v c512-c100 c512 100 $D; run_v base base - $D; run_v c512 c512 - $D
  run_v new-c100 gpu 100 $D8; run_v base base - $D8; run_v new gpu - $D8
  run_v new-c100 gpu 100 "decode llama-3-8b --weights NVFP4 --batch 1 --context 1024 --format markdown"
  run_v new gpu - "decode llama-3-8b --weights NVFP4 --batch 1 --context 1024 --format markdown"
} > /tmp/o/decode-ab.md 2>&1
tar -C /tmp -czf $OUT/call2.tgz o
grep -a "variant\|^B=1 context=32768\|^B=1 context=1024\|^B=8 context=8192" /tmp/o/attention-ab.txt
grep -a "us/step\|=== variant" /tmp/o/decode-ab.md | sed 's/(measured ceilings).*floor/... floor/'
