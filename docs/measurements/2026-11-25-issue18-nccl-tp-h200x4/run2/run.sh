# call 9 (4 GPUs): all-reduce launched eagerly, as PyTorch launches it, beside torch.distributed in the same call
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call9.tgz o; }
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name --format=csv > /tmp/o/device.txt
NCCL_NVLS_ENABLE=0 timeout 100 python3 -m torch.distributed.run --standalone --nproc_per_node=4 roofline-cuda/src/bench/python/nccl_torch.py > /tmp/o/nccl-torch.csv 2> /tmp/o/nccl-torch.err
save torch; grep -E "^#|^all_reduce,4,(16777216|268435456|1073741824)," /tmp/o/nccl-torch.csv
timeout 100 bash -c "source dist/packed/common.sh; roofline nccl-bench --gpus 4 --ops all-reduce --launch eager --min-bytes 1M" > /tmp/o/nccl-bench-eager.txt 2> /tmp/o/nccl-bench-eager.err
save eager; grep -E " (16777216|268435456|1073741824) |GPUs" /tmp/o/nccl-bench-eager.txt; tail -2 /tmp/o/nccl-bench-eager.err
timeout 100 bash -c "source dist/packed/common.sh; roofline nccl-bench --gpus 4 --ops all-reduce --launch graph --min-bytes 1M" > /tmp/o/nccl-bench-graph.txt 2> /tmp/o/nccl-bench-graph.err
save graph; grep -E " (16777216|268435456|1073741824) |GPUs" /tmp/o/nccl-bench-graph.txt; tail -2 /tmp/o/nccl-bench-graph.err
