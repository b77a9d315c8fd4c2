# call 9 (H200): the tiled GEMVs launched in plain stream order inside a programmatic step (ordtiled-cuda.jar:
# KernelLibrary launching every kernel whose name ends in _tiled without the programmatic attribute) against build
# 6c1d0f4 (every kernel programmatic), NVFP4 and INT4 at batch 1/8/16/32 x 1k, each calibrated at batch 1
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call9.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
step() { grep -a "^Llama" $1 | sed 's/ (.*roofline / roofline /' | cut -c1-100; grep -a "held out\|calibration " $1 | grep -a "^|"; }
timeout 200 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights NVFP4,INT4 --batch 1,8,16,32 --context 1024 --calibrate /tmp/o/calibration.json --format markdown" > /tmp/o/decode-tiled.md 2>&1
save tiled; step /tmp/o/decode-tiled.md
variant ordtiled dist/packed/ordtiled-cuda.jar
timeout 200 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/ordtiled roofline decode llama-3-8b --weights NVFP4,INT4 --batch 1,8,16,32 --context 1024 --calibrate /tmp/o/calibration-ordtiled.json --format markdown" > /tmp/o/decode-ordtiled.md 2>&1
save ordtiled; step /tmp/o/decode-ordtiled.md
