# call 159: issue 15, the calibrated sweep with FP8's norms in the products: calibrated at FP16 batch 1 x 1k, held out
# FP16 and FP8 at batch 1 and 8, 1k and 8k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call159.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 420 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3 --batch 1,8 --context 1024,8192 --calibrate /tmp/o/calibration.json --format markdown" > /tmp/o/decode-sweep.md 2>&1
save sweep
sed -n '/alibrat/,$p' /tmp/o/decode-sweep.md | tail -30
