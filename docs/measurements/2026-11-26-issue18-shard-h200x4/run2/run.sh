# run 2 (4 x H200, build d7d34bf): tp-decode TP4 of Llama-3-8B, the shard's GEMV classes fitted at each batch to one GPU's part of the
# step (ShardStep), with the H200 calibration and 4 x H200 collective fits of 2026-11-26's TP4 record
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call3.tgz o; }
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
cp dist/packed/h200x4-calibration.json /tmp/o/calibration.json
timeout 500 bash -c "source dist/packed/common.sh; roofline tp-decode llama-3-8b --gpus 4 --weights FP16,FP8_E4M3,NVFP4 --batch 1,8 --context 1024,8192 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/tp4-decode-8b.md 2> /tmp/o/tp4-decode-8b.err
save tp4; cat /tmp/o/tp4-decode-8b.md; tail -5 /tmp/o/tp4-decode-8b.err
