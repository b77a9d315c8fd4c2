source dist/packed/common.sh
export NCCL_NVLS_ENABLE=0
S=$(date +%s); mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
timeout 240 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.nccl.NcclIT --select-class dev.roofline.cuda.bench.CollectiveBenchmarkIT --select-class dev.roofline.cuda.decode.TensorParallelDecoderIT --select-class dev.roofline.cuda.decode.DenseDecoderIT" 2>&1 | strip_ansi > /tmp/o/it.txt
echo "it $(( $(date +%s) - S )) s"; grep -a "tests successful\|tests failed\|tests aborted\|tests skipped" /tmp/o/it.txt; grep -a -B2 -A14 "✘" /tmp/o/it.txt | head -60
cp docs/measurements/2026-11-25-issue20-batched-gemv-h100/run6/calibration.json /tmp/o/calibration.json
timeout 200 bash -c "source dist/packed/common.sh; roofline nccl-bench --gpus 2 --calibration /tmp/o/calibration.json" > /tmp/o/nccl-bench.txt 2> /tmp/o/nccl-bench.err
echo "bench $(( $(date +%s) - S )) s"; grep -E " (8|8192|65536|268435456) |GPUs|added" /tmp/o/nccl-bench.txt; tail -2 /tmp/o/nccl-bench.err
timeout 150 python3 -m torch.distributed.run --standalone --nproc_per_node=2 roofline-cuda/src/bench/python/nccl_torch.py > /tmp/o/nccl-torch.csv 2> /tmp/o/nccl-torch.err
echo "torch $(( $(date +%s) - S )) s"; grep -E "^#|,(8|268435456)," /tmp/o/nccl-torch.csv
timeout 240 bash -c "source dist/packed/common.sh; roofline tp-decode llama-3-8b --gpus 2 --weights FP16,FP8_E4M3,NVFP4 --batch 1,8 --context 1024 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/tp-decode-8b.md 2> /tmp/o/tp-decode-8b.err
echo "tp8b $(( $(date +%s) - S )) s"; cat /tmp/o/tp-decode-8b.md; tail -5 /tmp/o/tp-decode-8b.err
timeout 200 bash -c "source dist/packed/common.sh; roofline tp-decode llama-3-70b --gpus 2 --weights FP8_E4M3 --batch 1,8 --context 1024 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/tp-decode-70b.md 2> /tmp/o/tp-decode-70b.err
echo "tp70b $(( $(date +%s) - S )) s"; cat /tmp/o/tp-decode-70b.md; tail -5 /tmp/o/tp-decode-70b.err
(cd roofline-core/src/bench/python && timeout 100 python3 preset_parameters.py > /tmp/o/preset-parameters.csv 2> /tmp/o/preset-parameters.err; timeout 200 python3 preset_parameters.py --layer-flops 512 > /tmp/o/preset-layer-flops.csv 2> /tmp/o/preset-layer-flops.err)
echo "presets $(( $(date +%s) - S )) s"; grep gpt /tmp/o/preset-parameters.csv; cat /tmp/o/preset-layer-flops.csv; grep -v Warn /tmp/o/preset-layer-flops.err | tail -3
tar -C /tmp -czf $OUT/run3.tgz o
