# call 2 (2 GPUs): NCCL ITs (the abort path), the TP decoder IT, nccl-bench and tp-decode on this machine
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call2.tgz o; }
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; nvidia-smi topo -m >> /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 240 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.nccl.NcclIT --select-class dev.roofline.cuda.decode.TensorParallelDecoderIT --select-class dev.roofline.cuda.bench.CollectiveBenchmarkIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted" /tmp/o/it.txt; grep -a -B2 -A10 "✘" /tmp/o/it.txt | head -40; grep -a "aRankThatFails\|twoGpus\|batch" /tmp/o/it.txt | head
cp docs/measurements/2026-11-25-issue19-validate-h200/calibration.json /tmp/o/calibration.json
timeout 150 bash -c "source dist/packed/common.sh; roofline nccl-bench --gpus 2 --calibration /tmp/o/calibration.json" > /tmp/o/nccl-bench.txt 2> /tmp/o/nccl-bench.err
save bench; grep -E " (8|8192|65536|268435456) |GPUs|added" /tmp/o/nccl-bench.txt; tail -2 /tmp/o/nccl-bench.err
timeout 200 bash -c "source dist/packed/common.sh; roofline tp-decode llama-3-8b --gpus 2 --weights FP16,FP8_E4M3,NVFP4 --batch 1,8 --context 1024 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/tp-decode-8b.md 2> /tmp/o/tp-decode-8b.err
save tp8b; grep -a "us/step\|rror" /tmp/o/tp-decode-8b.md | cut -c1-220; tail -5 /tmp/o/tp-decode-8b.err
