#!/usr/bin/env python3
"""PyTorch's decode attention, the peer of `roofline attention-bench`: one query token per row, FP16 KV cache,
torch.nn.functional.scaled_dot_product_attention with GQA, timed like roofline's harness (CUDA graph of 20 launches
replayed, 10 warm-ups, median of 50 samples, K/V rotated over enough copies to exceed 4x the L2).

    python3 attention_sdpa.py --batch 1,8,32 --context 8192,32768 --heads 32 --kv-heads 8 --head-dim 128

Prints one line per configuration: batch, context, median us, KV GB/s (K and V bytes read over the median time).
"""
import argparse

import torch
import torch.nn.functional as F

from graph_timing import ints, time_us


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--batch", type=ints, default=[1, 8, 32])
    p.add_argument("--context", type=ints, default=[8192, 32768])
    p.add_argument("--heads", type=int, default=32)
    p.add_argument("--kv-heads", type=int, default=8)
    p.add_argument("--head-dim", type=int, default=128)
    a = p.parse_args()
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    print(f"device: {torch.cuda.get_device_name(0)}, torch {torch.__version__}")
    for t in a.context:
        for b in a.batch:
            kv_bytes = 2 * 2 * b * a.kv_heads * t * a.head_dim
            sets = max(1, -(-4 * l2 // kv_bytes))
            q = torch.randn(b, a.heads, 1, a.head_dim, device="cuda", dtype=torch.float16)
            ks = [torch.randn(b, a.kv_heads, t, a.head_dim, device="cuda", dtype=torch.float16) for _ in range(sets)]
            vs = [torch.randn(b, a.kv_heads, t, a.head_dim, device="cuda", dtype=torch.float16) for _ in range(sets)]
            out = torch.empty(b, a.heads, 1, a.head_dim, device="cuda", dtype=torch.float16)

            def run(i):
                out.copy_(F.scaled_dot_product_attention(q, ks[i], vs[i], enable_gqa=True))

            us = time_us(run, sets)
            print(f"sdpa B={b} context={t}: {us:.2f} us, {kv_bytes / us / 1e3:.0f} GB/s")
            del ks, vs
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
