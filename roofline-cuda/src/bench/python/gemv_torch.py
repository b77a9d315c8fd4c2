#!/usr/bin/env python3
"""PyTorch's weight-only products at decode's few rows, the peers of `roofline gemv-bench --rows`: x @ W^T with FP16
weights (torch.matmul into a preallocated output, cuBLAS as under F.linear) and tinygemm's INT4 g128 kernel (torch._weight_int4pack_mm, BF16 activations), timed like roofline's
harness (CUDA graph of 20 launches replayed, 10 warm-ups, median of 50 samples, weights rotated over enough copies to
exceed 4x the L2).

    python3 gemv_torch.py --rows 1,2,4,8,16 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672

Prints one line per configuration: peer, N x K, M, median us, weight GB/s (the weight bytes read over the median time;
tinygemm's INT4 counts K/2 bytes a row plus its BF16 scale and zero of each group of 128).
"""
import argparse

import torch

from graph_timing import ints, time_us


def shape(text):
    n, k = text.lower().split("x")
    return int(n), int(k)


def copies(nbytes, l2):
    return max(2, -(-4 * l2 // nbytes))


def fp16_linear(n, k, rows, l2):
    nbytes = 2 * n * k
    ws = [torch.randn(n, k, device="cuda", dtype=torch.float16) * 0.02 for _ in range(copies(nbytes, l2))]
    x = torch.randn(rows, k, device="cuda", dtype=torch.float16)
    y = torch.empty(rows, n, device="cuda", dtype=torch.float16)
    us = time_us(lambda i: torch.matmul(x, ws[i].t(), out=y), len(ws))
    return us, nbytes


def tinygemm_int4(n, k, rows, l2, group=128, inner_k_tiles=8):
    nbytes = n * k // 2 + n * (k // group) * 2 * 2  # packed nibbles, a BF16 scale and zero per group
    sets = copies(nbytes, l2)
    packed = []
    for _ in range(sets):
        q = torch.randint(0, 16, (n, k), device="cuda", dtype=torch.int32)
        w = (q[:, ::2] << 4 | q[:, 1::2]).to(torch.uint8)
        packed.append(torch.ops.aten._convert_weight_to_int4pack(w, inner_k_tiles))
    sz = torch.rand(k // group, n, 2, device="cuda", dtype=torch.bfloat16)
    x = torch.randn(rows, k, device="cuda", dtype=torch.bfloat16)
    us = time_us(lambda i: torch.ops.aten._weight_int4pack_mm(x, packed[i], group, sz), sets)
    return us, nbytes


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rows", type=ints, default=[1, 2, 4, 8, 16])
    p.add_argument("--shape", type=shape, action="append")
    a = p.parse_args()
    shapes = a.shape or [(8192, 8192), (28672, 8192), (8192, 28672)]
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    print(f"device: {torch.cuda.get_device_name(0)}, torch {torch.__version__}")
    print("peer,n,k,m,us,weight_gb_s")
    for n, k in shapes:
        for m in a.rows:
            for name, peer in (("torch-fp16-linear", fp16_linear), ("torch-tinygemm-int4", tinygemm_int4)):
                try:
                    us, nbytes = peer(n, k, m, l2)
                    print(f"{name},{n},{k},{m},{us:.2f},{nbytes / us / 1e3:.0f}", flush=True)
                except Exception as e:  # a peer this torch lacks is named, the others still run
                    print(f"{name},{n},{k},{m},failed: {type(e).__name__}: {e}", flush=True)
                torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
