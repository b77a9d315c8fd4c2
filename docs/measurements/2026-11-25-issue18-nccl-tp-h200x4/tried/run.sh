# call 8 (4 GPUs): tp-decode TP4 with the GEMV row classes timed again on each GPU's share
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call8.tgz o; }
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name --format=csv > /tmp/o/device.txt
cp dist/packed/h200-x4-calibration.json /tmp/o/calibration.json
timeout 200 bash -c "source dist/packed/common.sh; roofline tp-decode llama-3-8b --gpus 4 --weights FP16,FP8_E4M3,NVFP4 --batch 1,8,16 --context 1024 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/tp4-decode-8b.md 2> /tmp/o/tp4-decode-8b.err
save tp4; grep -a "^| Llama" /tmp/o/tp4-decode-8b.md; tail -3 /tmp/o/tp4-decode-8b.err
timeout 150 bash -c "source dist/packed/common.sh; roofline tp-decode llama-3-70b --gpus 4 --weights FP8_E4M3 --batch 1,8 --context 1024 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/tp4-decode-70b.md 2> /tmp/o/tp4-decode-70b.err
save tp4-70b; grep -a "^| Llama" /tmp/o/tp4-decode-70b.md; tail -3 /tmp/o/tp4-decode-70b.err
