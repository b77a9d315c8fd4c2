source dist/packed/common.sh
export NCCL_NVLS_ENABLE=0
S=$(date +%s); mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
timeout 200 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.nccl.NcclIT --select-class dev.roofline.cuda.bench.CollectiveBenchmarkIT --select-class dev.roofline.cuda.nccl.NcclTest --select-class dev.roofline.cuda.cli.NcclBenchCommandTest" 2>&1 | strip_ansi > /tmp/o/it.txt
echo "it $(( $(date +%s) - S )) s"; grep -a "tests successful\|tests failed\|tests aborted\|tests skipped" /tmp/o/it.txt; grep -a -B2 -A12 "✘" /tmp/o/it.txt | head -60
cp docs/measurements/2026-11-25-issue20-batched-gemv-h100/run6/calibration.json /tmp/o/calibration.json
timeout 200 bash -c "source dist/packed/common.sh; roofline nccl-bench --gpus 2 --calibration /tmp/o/calibration.json" > /tmp/o/nccl-bench.txt 2> /tmp/o/nccl-bench.err
echo "bench $(( $(date +%s) - S )) s"; grep -E "^(all|reduce)|GPUs|added|,(268435456|1073741824)" /tmp/o/nccl-bench.txt | head; grep -E " (268435456|1073741824) " /tmp/o/nccl-bench.txt; tail -3 /tmp/o/nccl-bench.err
timeout 150 python3 -m torch.distributed.run --standalone --nproc_per_node=2 roofline-cuda/src/bench/python/nccl_torch.py > /tmp/o/nccl-torch.csv 2> /tmp/o/nccl-torch.err
echo "torch $(( $(date +%s) - S )) s"; grep -E "^#|,(268435456|1073741824)," /tmp/o/nccl-torch.csv
timeout 200 bash -c "source dist/packed/common.sh; roofline nccl-bench --gpus 2 --format csv" > /tmp/o/nccl-bench-2.csv 2> /tmp/o/nccl-bench-2.err
echo "bench2 $(( $(date +%s) - S )) s"; grep -E ",(268435456|1073741824)," /tmp/o/nccl-bench-2.csv
(cd roofline-core/src/bench/python && timeout 120 python3 preset_parameters.py > /tmp/o/preset-parameters.csv 2> /tmp/o/preset-parameters.err; timeout 240 python3 preset_parameters.py --layer-flops 512 > /tmp/o/preset-layer-flops.csv 2> /tmp/o/preset-layer-flops.err)
echo "presets $(( $(date +%s) - S )) s"; tail -8 /tmp/o/preset-parameters.csv; grep -v Warning /tmp/o/preset-parameters.err | tail -5; cat /tmp/o/preset-layer-flops.csv; grep -v Warning /tmp/o/preset-layer-flops.err | tail -5
tar -C /tmp -czf $OUT/run2.tgz o
