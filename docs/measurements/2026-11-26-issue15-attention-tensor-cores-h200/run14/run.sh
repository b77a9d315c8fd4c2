# call 92: this session's kept changes on an H100 (new: 293843a's build) against 2fa7673 (base): attention-bench at
# batch 1, FP16 batch-1 steps at 1k and 8k, the INT8 batch-1 step at 1k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call92.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
for v in base new; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline attention-bench --kv fp16 --batch 1 --context 1024,8192,16384,32768" > /tmp/o/attention-$v.txt 2>&1
done
save attention
for v in base new; do echo "== $v"; grep -a -E "^B=" /tmp/o/attention-$v.txt | awk '{print $1,$2,$3,$5,$NF}' | tr '\n' ';'; echo; done
for v in base new; do
  timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights FP16,INT8 --batch 1 --context 1024 --format markdown" > /tmp/o/decode-$v.md 2>&1
  save decode-$v
done
for v in base new; do echo "== $v"; grep -a 'us/step' /tmp/o/decode-$v.md | sed -E 's/^(Llama-3-8B )?//' | cut -c1-120; done
