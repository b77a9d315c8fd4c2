source dist/packed/common.sh
export NCCL_NVLS_ENABLE=0
S=$(date +%s); mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
timeout 120 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.nccl.NcclIT --select-class dev.roofline.cuda.bench.CollectiveBenchmarkIT" 2>&1 | strip_ansi > /tmp/o/it.txt
echo "it $(( $(date +%s) - S )) s"; grep -a "tests successful\|tests failed\|tests aborted\|tests skipped" /tmp/o/it.txt; grep -a -B2 -A14 "✘" /tmp/o/it.txt | head -40
cp docs/measurements/2026-11-25-issue20-batched-gemv-h100/run6/calibration.json /tmp/o/calibration.json
timeout 150 bash -c "source dist/packed/common.sh; roofline nccl-bench --gpus 2 --launch graph --calibration /tmp/o/calibration.json" > /tmp/o/nccl-bench-graph.txt 2> /tmp/o/nccl-bench-graph.err
echo "graph $(( $(date +%s) - S )) s"; grep -E " (8|8192|65536|268435456) |GPUs|added" /tmp/o/nccl-bench-graph.txt; tail -2 /tmp/o/nccl-bench-graph.err
timeout 100 bash -c "source dist/packed/common.sh; roofline nccl-bench --gpus 2 --launch eager --min-bytes 256M --max-bytes 256M --format csv" > /tmp/o/nccl-bench-eager-256m.csv 2> /tmp/o/nccl-bench-eager.err
timeout 100 python3 -m torch.distributed.run --standalone --nproc_per_node=2 roofline-cuda/src/bench/python/nccl_torch.py --min-bytes 256M --max-bytes 256M > /tmp/o/nccl-torch-256m.csv 2> /tmp/o/nccl-torch.err
echo "256m $(( $(date +%s) - S )) s"; cat /tmp/o/nccl-bench-eager-256m.csv /tmp/o/nccl-torch-256m.csv
timeout 200 bash -c "source dist/packed/common.sh; roofline tp-decode llama-3-8b --gpus 2 --weights FP16,FP8_E4M3,NVFP4 --batch 1,8 --context 1024 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/tp-decode-8b.md 2> /tmp/o/tp-decode-8b.err
echo "tp8b $(( $(date +%s) - S )) s"; cat /tmp/o/tp-decode-8b.md; tail -3 /tmp/o/tp-decode-8b.err
timeout 220 bash -c "source dist/packed/common.sh; roofline tp-decode llama-3-70b --gpus 2 --weights FP8_E4M3 --batch 1,8 --context 1024 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/tp-decode-70b.md 2> /tmp/o/tp-decode-70b.err
echo "tp70b $(( $(date +%s) - S )) s"; cat /tmp/o/tp-decode-70b.md; tail -3 /tmp/o/tp-decode-70b.err
tar -C /tmp -czf $OUT/run4.tgz o
