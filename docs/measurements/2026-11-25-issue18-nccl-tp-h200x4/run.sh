# call 7 (4 GPUs): NCCL ITs across 4 GPUs, nccl-bench on 4 GPUs beside PyTorch's torch.distributed, tp-decode TP4 (and TP2)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call7.tgz o; }
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv > /tmp/o/device.txt; nvidia-smi topo -m >> /tmp/o/device.txt; cat /tmp/o/device.txt
C=dist/packed/h200-calibration.json
grep -q H100 /tmp/o/device.txt && C=docs/measurements/2026-11-25-issue20-batched-gemv-h100/run6/calibration.json
cp $C /tmp/o/calibration.json
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.nccl.NcclIT --select-class dev.roofline.cuda.decode.TensorParallelDecoderIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted" /tmp/o/it.txt; grep -a -B2 -A8 "✘" /tmp/o/it.txt | head -30
NCCL_NVLS_ENABLE=0 timeout 120 python3 -m torch.distributed.run --standalone --nproc_per_node=4 roofline-cuda/src/bench/python/nccl_torch.py > /tmp/o/nccl-torch.csv 2> /tmp/o/nccl-torch.err
save torch; grep -E "^#|,(268435456|1073741824)," /tmp/o/nccl-torch.csv | head; tail -2 /tmp/o/nccl-torch.err
timeout 120 bash -c "source dist/packed/common.sh; roofline nccl-bench --gpus 4 --calibration /tmp/o/calibration.json" > /tmp/o/nccl-bench.txt 2> /tmp/o/nccl-bench.err
save bench; grep -E " (8|268435456|1073741824) |GPUs|added" /tmp/o/nccl-bench.txt; tail -2 /tmp/o/nccl-bench.err
timeout 200 bash -c "source dist/packed/common.sh; roofline tp-decode llama-3-8b --gpus 4 --weights FP16,FP8_E4M3,NVFP4 --batch 1,8 --context 1024 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/tp4-decode-8b.md 2> /tmp/o/tp4-decode-8b.err
save tp4; grep -a "^| Llama" /tmp/o/tp4-decode-8b.md; tail -3 /tmp/o/tp4-decode-8b.err
timeout 150 bash -c "source dist/packed/common.sh; roofline tp-decode llama-3-70b --gpus 4 --weights FP8_E4M3 --batch 1,8 --context 1024 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/tp4-decode-70b.md 2> /tmp/o/tp4-decode-70b.err
save tp4-70b; grep -a "^| Llama" /tmp/o/tp4-decode-70b.md; tail -3 /tmp/o/tp4-decode-70b.err
