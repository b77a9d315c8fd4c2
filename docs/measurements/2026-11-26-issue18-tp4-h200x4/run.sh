# call 14 (4 x H200): tp-decode TP4 of Llama-3-8B with the H200 calibration of call 10 (attention by heads, row ratios
# net of launches, tiled 4-bit GEMVs) and the 4 x H200 collective fits of 2026-11-25
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call14.tgz o; }
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
cp dist/packed/h200x4-calibration.json /tmp/o/calibration.json
timeout 220 bash -c "source dist/packed/common.sh; roofline tp-decode llama-3-8b --gpus 4 --weights FP16,FP8_E4M3,NVFP4 --batch 1,8 --context 1024 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/tp4-decode-8b.md 2> /tmp/o/tp4-decode-8b.err
save tp4; grep -a "^| Llama" /tmp/o/tp4-decode-8b.md; tail -3 /tmp/o/tp4-decode-8b.err
