#!/usr/bin/env python3
r"""PyTorch's decode step of a dense Llama-family model, the peer of `roofline decode`: what a competent engineer
writes in plain PyTorch without a serving engine, on the same shapes and work as roofline's decode step.

Llama-3-8B by default (hidden 4096, 32 layers, 32 query heads on 8 KV heads of 128, intermediate 14336, vocab 128256).
Every layer has its own random weights (merged QKV, O, merged gate/up, down, two RMSNorm weights), so each step reads
all ~15 GB of them from DRAM; then the final norm and lm_head. The batch's rows all sit at position context - 1:

    per layer: F.rms_norm -> F.linear(qkv) -> RoPE on q, k -> index_copy_ k, v into the layer's cache [B, G, C, D]
               -> F.scaled_dot_product_attention(enable_gqa=True) over the C cached tokens -> F.linear(o) -> + residual
               -> F.rms_norm -> F.linear(gate_up) -> F.silu(gate) * up -> F.linear(down) -> + residual
    then:      F.rms_norm -> F.linear(lm_head) -> logits [B, V]

The input is the step's hidden state [B, hidden] (no embedding gather: B rows of it are negligible bytes). The whole
step is captured in one CUDA graph (after warm-ups on a side stream) and replayed; each replay is timed with CUDA events
and the median is reported, beside the median of the same step run eagerly (no graph).

    python3 decode_step_torch.py --batch 1,8,32 --context 1024,8192
    python3 decode_step_torch.py --batch 1,8,32 --context 1024,8192 --dtype bf16 --replays 200
    python3 decode_step_torch.py --layers 2 --hidden 256 --heads 4 --kv-heads 2 --head-dim 64 --intermediate 512 \
        --vocab 1000   # a tiny model, to try the script

Prints the device, the model, then per (batch, context): a human-readable line, and a JSON line (starts with '{':
torch, device, dtype, batch, context, median_ms, tokens_per_s, eager_median_ms, replays, weight_bytes, kv_cache_bytes).
A configuration whose KV cache does not fit in the free GPU memory is skipped with a line saying why.
"""
import argparse
import json
import statistics

import torch
import torch.nn.functional as F

DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16}
SLACK = 1 << 30  # headroom for activations, cuBLAS workspace and the graph's memory pool


def ints(text):
    return [int(x) for x in text.split(",")]


def gb(n):
    return f"{n / 1e9:.2f} GB"


def weight_elems(a):
    h, qkv = a.hidden, (a.heads + 2 * a.kv_heads) * a.head_dim
    layer = qkv * h + h * a.heads * a.head_dim + 2 * a.intermediate * h + h * a.intermediate + 2 * h
    return a.layers * layer + h + a.vocab * h


def make_weights(a, dtype):
    def rand(*shape):  # std 1/sqrt(fan_in) keeps activations O(1) through the layers
        return torch.empty(*shape, device="cuda", dtype=dtype).normal_(0.0, shape[-1] ** -0.5)

    def norm():
        return torch.empty(a.hidden, device="cuda", dtype=dtype).normal_(1.0, 0.1)

    h, hd = a.hidden, a.heads * a.head_dim
    layers = [{"attn_norm": norm(),
               "qkv": rand(hd + 2 * a.kv_heads * a.head_dim, h),
               "o": rand(h, hd),
               "mlp_norm": norm(),
               "gate_up": rand(2 * a.intermediate, h),
               "down": rand(h, a.intermediate)} for _ in range(a.layers)]
    return layers, norm(), rand(a.vocab, h)


def rope_cos_sin(pos, a, dtype):
    """cos and sin [head_dim] at one position, rotate-half layout (pairs i and i + head_dim/2), plain frequencies."""
    inv_freq = 1.0 / a.rope_theta ** (torch.arange(0, a.head_dim, 2, dtype=torch.float64) / a.head_dim)
    angles = torch.cat([pos * inv_freq] * 2)
    return angles.cos().to("cuda", dtype), angles.sin().to("cuda", dtype)


def rope(x, cos, sin):
    x1, x2 = x.chunk(2, dim=-1)
    return x * cos + torch.cat((-x2, x1), dim=-1) * sin


def decode_step(x, layers, final_norm, lm_head, caches, cos, sin, pos, a):
    """One decode step for hidden states x [B, hidden]; writes this step's K and V at pos; returns logits [B, V]."""
    b, hs, kvh, d = x.shape[0], a.heads, a.kv_heads, a.head_dim
    for w, (k_cache, v_cache) in zip(layers, caches):
        y = F.rms_norm(x, (a.hidden,), w["attn_norm"], a.rms_eps)
        q, k, v = F.linear(y, w["qkv"]).split([hs * d, kvh * d, kvh * d], dim=-1)
        q = rope(q.view(b, hs, d), cos, sin)
        k = rope(k.view(b, kvh, d), cos, sin)
        k_cache.index_copy_(2, pos, k.view(b, kvh, 1, d))
        v_cache.index_copy_(2, pos, v.view(b, kvh, 1, d))
        attn = F.scaled_dot_product_attention(q.view(b, hs, 1, d), k_cache, v_cache, enable_gqa=True)
        x = x + F.linear(attn.reshape(b, hs * d), w["o"])
        y = F.rms_norm(x, (a.hidden,), w["mlp_norm"], a.rms_eps)
        gate, up = F.linear(y, w["gate_up"]).chunk(2, dim=-1)
        x = x + F.linear(F.silu(gate) * up, w["down"])
    return F.linear(F.rms_norm(x, (a.hidden,), final_norm, a.rms_eps), lm_head)


def median_ms(fn, warmup, replays):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def run_config(a, dtype, weights, b, t):
    layers, final_norm, lm_head = weights
    caches = [(torch.empty(b, a.kv_heads, t, a.head_dim, device="cuda", dtype=dtype).normal_(0.0, 0.5),
               torch.empty(b, a.kv_heads, t, a.head_dim, device="cuda", dtype=dtype).normal_(0.0, 0.5))
              for _ in range(a.layers)]
    cos, sin = rope_cos_sin(t - 1, a, dtype)
    pos = torch.tensor([t - 1], device="cuda", dtype=torch.long)
    x = torch.randn(b, a.hidden, device="cuda", dtype=dtype)  # static input: the graph reads it, never writes it

    def eager():
        return decode_step(x, layers, final_norm, lm_head, caches, cos, sin, pos, a)

    eager_ms = median_ms(eager, a.warmup, a.replays)

    side = torch.cuda.Stream()  # warm-up before capture on a side stream, as torch.cuda.graph's docs require
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(max(1, a.warmup)):
            eager()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        logits = eager()  # static output, rewritten by every replay
    graph_ms = median_ms(graph.replay, a.warmup, a.replays)
    finite = bool(torch.isfinite(logits).all())
    del graph, logits, caches
    return graph_ms, eager_ms, finite


def main():
    p = argparse.ArgumentParser(description="PyTorch decode step (CUDA graph) of a Llama-family model")
    p.add_argument("--batch", type=ints, default=[1])
    p.add_argument("--context", type=ints, default=[1024], help="tokens in the KV cache, this step's included")
    p.add_argument("--dtype", choices=sorted(DTYPES), default="fp16")
    p.add_argument("--replays", type=int, default=100)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--hidden", type=int, default=4096)
    p.add_argument("--layers", type=int, default=32)
    p.add_argument("--heads", type=int, default=32)
    p.add_argument("--kv-heads", type=int, default=8)
    p.add_argument("--head-dim", type=int, default=128)
    p.add_argument("--intermediate", type=int, default=14336)
    p.add_argument("--vocab", type=int, default=128256)
    p.add_argument("--rms-eps", type=float, default=1e-5)
    p.add_argument("--rope-theta", type=float, default=500000.0)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    if a.heads % a.kv_heads or a.head_dim % 2 or min(a.batch + a.context) < 1 or a.replays < 1:
        p.error("need heads divisible by kv-heads, an even head-dim, batch and context >= 1, replays >= 1")
    dtype, size = DTYPES[a.dtype], DTYPES[a.dtype].itemsize
    device = torch.cuda.get_device_name(0)
    print(f"device: {device}, torch {torch.__version__}")
    weight_bytes = weight_elems(a) * size
    print(f"model: hidden {a.hidden}, {a.layers} layers, {a.heads} heads on {a.kv_heads} KV heads of {a.head_dim}, "
          f"intermediate {a.intermediate}, vocab {a.vocab}; weights {gb(weight_bytes)} {a.dtype}")
    free, _ = torch.cuda.mem_get_info()
    if weight_bytes + SLACK > free:
        print(f"skip all: the weights need {gb(weight_bytes)} + {gb(SLACK)} headroom, {gb(free)} free")
        return
    torch.manual_seed(a.seed)
    with torch.inference_mode():
        weights = make_weights(a, dtype)
        for t in a.context:
            for b in a.batch:
                kv_bytes = 2 * a.layers * b * a.kv_heads * t * a.head_dim * size
                torch.cuda.empty_cache()
                free, _ = torch.cuda.mem_get_info()
                if kv_bytes + SLACK > free:
                    print(f"skip B={b} context={t}: the KV cache needs {gb(kv_bytes)} + {gb(SLACK)} headroom, "
                          f"{gb(free)} free beside the weights")
                    continue
                ms, eager_ms, finite = run_config(a, dtype, weights, b, t)
                print(f"torch {a.dtype} B={b} context={t}: {ms:.3f} ms/step graph ({b * 1e3 / ms:.1f} tokens/s), "
                      f"eager {eager_ms:.3f} ms/step ({b * 1e3 / eager_ms:.1f} tokens/s)"
                      + ("" if finite else "; WARNING: non-finite logits"))
                print(json.dumps({"torch": torch.__version__, "device": device, "dtype": a.dtype, "batch": b,
                                  "context": t, "median_ms": round(ms, 4), "tokens_per_s": round(b * 1e3 / ms, 2),
                                  "eager_median_ms": round(eager_ms, 4), "replays": a.replays,
                                  "weight_bytes": weight_bytes, "kv_cache_bytes": kv_bytes}), flush=True)


if __name__ == "__main__":
    main()
