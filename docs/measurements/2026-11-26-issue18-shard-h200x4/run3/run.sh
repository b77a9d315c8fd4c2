# run 3 (2 x H200, build d7d34bf): tp-decode TP2 of Llama-3-8B, the shard's product classes fitted at each batch to one
# GPU's part of the step (ShardStep), with the H200 calibration of 2026-11-26's TP4 record and the 2 x H200 collective
# fits of 2026-11-25 (h200-tp-calibration.json: both merged)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call4.tgz o; }
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
cp dist/packed/h200-tp-calibration.json /tmp/o/calibration.json
timeout 500 bash -c "source dist/packed/common.sh; roofline tp-decode llama-3-8b --gpus 2 --weights FP16,FP8_E4M3,NVFP4 --batch 1,8,16 --context 1024,8192 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/tp2-decode-8b.md 2> /tmp/o/tp2-decode-8b.err
save tp2; cat /tmp/o/tp2-decode-8b.md; tail -5 /tmp/o/tp2-decode-8b.err
