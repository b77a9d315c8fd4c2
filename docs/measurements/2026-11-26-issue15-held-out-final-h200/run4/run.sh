# call 67: issues 15 and 20, the decode sweep on build 8ae6863 (INT4 and NVFP4 lanes read x one line a load; two
# tiles a block at 5-8 rows for MXFP4 only), calibrated at batch 1 x 1k and held out at batch 8/16/32 x 1k/8k in four formats
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call67.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 240 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8,16,32 --context 1024,8192 --calibrate /tmp/o/calibration.json --format markdown" > /tmp/o/decode-sweep.md 2>&1
save sweep; grep -a "held out\|calibration" /tmp/o/decode-sweep.md | grep -a "^|" | cut -d'|' -f2,3,4,9,10 | head -40
