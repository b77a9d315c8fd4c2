# call 7 (H200): Llama-3-8B NVFP4 and INT4 decode steps at batch 1/8/16/32 x 1k with the tiled kernels (calibrated at
# batch 1) and with the build before them (old-cuda.jar), in the same call
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call7.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 280 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights NVFP4,INT4 --batch 1,8,16,32 --context 1024,8192 --calibrate /tmp/o/calibration.json --format markdown" > /tmp/o/decode-tiled.md 2>&1
save tiled; grep -a "^Llama" /tmp/o/decode-tiled.md | cut -c1-200; grep -a "held out\|calibration " /tmp/o/decode-tiled.md | grep -a "^|"
variant old dist/packed/old-cuda.jar
timeout 200 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline decode llama-3-8b --weights NVFP4,INT4 --batch 1,8,16,32 --context 1024 --format markdown" > /tmp/o/decode-old.md 2>&1
save old; grep -a "^Llama" /tmp/o/decode-old.md | cut -c1-200
