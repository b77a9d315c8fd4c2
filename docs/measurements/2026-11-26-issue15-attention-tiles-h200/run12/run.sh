# call 12 (H200): the final build (2e51d07) beside PyTorch's decode step in the same call: FP16 batch 1/8/32 x 1k/8k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call12.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1,8,32 --context 1024,8192 --format markdown" > /tmp/o/decode.md 2>&1
save decode; grep -a "us/step" /tmp/o/decode.md | sed 's/ (measured ceilings).*floor/ ... floor/'
(cd roofline-cuda/src/bench/python && timeout 200 python3 decode_step_torch.py --batch 1,8,32 --context 1024,8192) > /tmp/o/torch.txt 2>&1
save torch; grep -a -v "^{" /tmp/o/torch.txt | tail -8
