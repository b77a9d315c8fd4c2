# call 81: the read floor on an H100 (bc91d60's bundle): decode steps in four formats at batch 1 x 1k with their
# floors, the attention at batch 1 beside one read of its KV bytes
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call81.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp16 --batch 1,8 --context 8192,16384,32768" > /tmp/o/attention.txt 2>&1
save attention; grep -a "context=" /tmp/o/attention.txt | tail -6
timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1 --context 1024 --format markdown" > /tmp/o/decode.md 2>&1
save decode; grep -a 'us/step' /tmp/o/decode.md | sed -E 's#roofline [0-9.]+ us \(measured ceilings\), [0-9.]+ us \(datasheet\); ##; s#; [0-9.]+ J/token.*##' | cut -c1-330
grep -a "^| step (graph)" /tmp/o/decode.md
