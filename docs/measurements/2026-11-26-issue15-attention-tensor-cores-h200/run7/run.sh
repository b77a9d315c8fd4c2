# call 86: issue 15, FP16 decode steps at batch 8 and 32 with the attention's split pass on the tensor cores (new)
# against the build before it (base), where attention-bench had the pass 0.3-1.4 % slower at batch 8 x 4k-16k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call86.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
[ -d /tmp/b/base ] || variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
for v in base new; do
  timeout 140 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights FP16 --batch 8,32 --context 1024,8192 --format markdown" > /tmp/o/decode-$v.md 2>&1
  save decode-$v
done
for v in base new; do echo "== $v"; grep -a 'us/step' /tmp/o/decode-$v.md | sed -E 's/^(Llama-3-8B )?//' | cut -c1-110; done
timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/base roofline attention-bench --kv fp16 --batch 32 --context 1024,8192" > /tmp/o/attention-base.txt 2>&1
timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp16 --batch 32 --context 1024,8192" > /tmp/o/attention-new.txt 2>&1
save attention; for v in base new; do echo "== $v"; grep -a -E "^B=" /tmp/o/attention-$v.txt | awk '{print $1,$2,$3,$5}'; done
