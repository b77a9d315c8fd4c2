# call 105 (H200): issue 15 on the build of call 104 (new): the decode sweep calibrated at batch 1 x 1k and held out at
# batch 8/16/32 x 1k/8k, batch 1/8 x 32k priced with the same calibration; PyTorch's decode step at batch 1 x 1k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call105.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 300 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8,16,32 --context 1024,8192 --calibrate /tmp/o/calibration.json --format markdown" > /tmp/o/decode-sweep.md 2>&1
save sweep; grep -a "held out\|calibration" /tmp/o/decode-sweep.md | grep -a "^|" | cut -d'|' -f2,3,4,9,10 | head -40
timeout 160 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8 --context 32768 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/decode-32k.md 2>&1
save 32k; grep -a "held out" /tmp/o/decode-32k.md | cut -d'|' -f2,3,4,9,10 | head -10
(cd roofline-cuda/src/bench/python && timeout 90 python3 decode_step_torch.py --batch 1 --context 1024) > /tmp/o/torch.txt 2>&1
save torch; tail -5 /tmp/o/torch.txt
