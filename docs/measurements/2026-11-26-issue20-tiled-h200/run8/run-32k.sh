# call 11 (H200): batch 1/8 x 32k priced with call 10's calibration (the final build, tiled 4-bit GEMVs)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call11.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
cp dist/packed/h200-calibration.json /tmp/o/calibration.json
timeout 200 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8 --context 32768 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/decode-32k.md 2>&1
save 32k; grep -a "held out" /tmp/o/decode-32k.md | head -10
