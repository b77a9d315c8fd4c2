# call 10 (4 GPUs): tp-decode TP4 with the shard's GEMV classes timed beside the whole model's
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call10.tgz o; }
export NCCL_NVLS_ENABLE=0
cp dist/packed/h200-x4-calibration.json /tmp/o/calibration.json
timeout 140 bash -c "source dist/packed/common.sh; roofline tp-decode llama-3-8b --gpus 4 --weights FP16,FP8_E4M3,NVFP4 --batch 1,8 --context 1024 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/tp4-decode-8b.md 2> /tmp/o/tp4-decode-8b.err
save tp4; grep -a "^| Llama" /tmp/o/tp4-decode-8b.md; tail -3 /tmp/o/tp4-decode-8b.err
