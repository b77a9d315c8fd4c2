#!/usr/bin/env python3
"""The peer for roofline's NCCL benchmark: torch.distributed's all-reduce, all-gather and reduce-scatter (NCCL
backend, one process per GPU), timed and reported the way nccl-tests reports them, so both print the same columns.

    NCCL_NVLS_ENABLE=0 python3 -m torch.distributed.run --standalone --nproc_per_node=2 nccl_torch.py \
        --min-bytes 8 --max-bytes 1G > nccl-torch.csv

Sizes double from --min-bytes to --max-bytes; each is the bytes of the whole buffer as nccl-tests counts them: the
buffer reduced by all-reduce, the gathered output of all-gather, the scattered input of reduce-scatter (float32,
sum). Per size: 5 warm-up calls, then --iters calls between two CUDA events on rank 0's stream, and the mean per call
(nccl-tests' own timing). Rank 0 prints op,ranks,bytes,time_us,algbw_gbps,busbw_gbps where algbw = bytes / time and
busbw = algbw x 2(n-1)/n for all-reduce and x (n-1)/n for the other two (nccl-tests doc/PERFORMANCE.md).
"""
import argparse
import os

import torch
import torch.distributed as dist

UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def size(text):
    text = text.strip().upper()
    return int(text[:-1]) * UNITS[text[-1]] if text[-1] in UNITS else int(text)


def bus_factor(op, n):
    return 2 * (n - 1) / n if op == "all_reduce" else (n - 1) / n


def run(op, nbytes, n, iters):
    elements = max(nbytes // 4, n)
    elements -= elements % n
    if op == "all_reduce":
        buf = torch.ones(elements, device="cuda")
        call = lambda: dist.all_reduce(buf)
    elif op == "all_gather":
        out = torch.empty(elements, device="cuda")
        inp = torch.ones(elements // n, device="cuda")
        call = lambda: dist.all_gather_into_tensor(out, inp)
    else:
        inp = torch.ones(elements, device="cuda")
        out = torch.empty(elements // n, device="cuda")
        call = lambda: dist.reduce_scatter_tensor(out, inp)
    for _ in range(5):
        call()
    torch.cuda.synchronize()
    dist.barrier()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        call()
    end.record()
    end.synchronize()
    seconds = start.elapsed_time(end) / 1000 / iters
    counted = elements * 4
    return seconds, counted


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--min-bytes", type=size, default=8)
    p.add_argument("--max-bytes", type=size, default=1 << 30)
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--ops", default="all_reduce,all_gather,reduce_scatter")
    a = p.parse_args()
    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", device_id=torch.device("cuda", rank))
    n = dist.get_world_size()
    if rank == 0:
        print(f"# torch {torch.__version__}, NCCL {'.'.join(map(str, torch.cuda.nccl.version()))}, "
              f"{torch.cuda.get_device_name(0)} x {n}, NCCL_NVLS_ENABLE={os.environ.get('NCCL_NVLS_ENABLE')}")
        print("op,ranks,bytes,time_us,algbw_gbps,busbw_gbps")
    for op in a.ops.split(","):
        nbytes = a.min_bytes
        while nbytes <= a.max_bytes:
            seconds, counted = run(op, nbytes, n, a.iters)
            if rank == 0:
                algbw = counted / seconds / 1e9
                print(f"{op},{n},{counted},{seconds * 1e6:.2f},{algbw:.3f},{algbw * bus_factor(op, n):.3f}",
                      flush=True)
            nbytes *= 2
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
