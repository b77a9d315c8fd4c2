#!/usr/bin/env python3
# Run with Debian python: /usr/bin/python3 /work/peers/run_llm_analysis.py
import sys, json, itertools
sys.path.insert(0, "/work/peers/llm-analysis")
from llm_analysis.analysis import infer

MODEL = "upstage_Llama-2-70b-instruct-v2"   # h=8192, L=80, heads=64, kv=8, ffn=28672, V=32000, gated MLP
cases = []
for gpu in ["h100-sxm-80gb", "a100-sxm-80gb"]:
    for (s, g) in [(512, 128), (2048, 256)]:
        for tp in [2, 4, 8]:
            for b in [1, 16]:
                cases.append(dict(gpu=gpu, tp=tp, b=b, s=s, g=g))

rows = []
for c in cases:
    try:
        d = infer(model_name=MODEL, gpu_name=c["gpu"], dtype_name="w16a16e16",
                  log_level="ERROR", batch_size_per_gpu=c["b"], tp_size=c["tp"],
                  pp_size=1, dp_size=1, seq_len=c["s"], num_tokens_to_generate=c["g"],
                  use_kv_cache=True)  # all efficiencies left at defaults (=1.0)
        d = {k: (v.name if hasattr(v, "name") else v) for k, v in d.items()}
        d.update(case=c)
        rows.append(d)
    except AssertionError as e:
        rows.append(dict(case=c, error=str(e)))

json.dump(rows, open("/work/peers/out/llm_analysis_results.json", "w"), indent=1, default=str)

GiB = 1024**3
hdr = ("gpu", "TP", "B", "in", "out", "TTFT_ms", "TPOT_ms", "total_s", "prefill_tok/s", "decode_tok/s",
       "total_tok/s", "W/GPU_GiB", "KV/GPU_GiB", "KVlat_ms", "prefill_tp_comm_ms", "decode_tp_comm_ms",
       "AR/layer_decode_us", "AR/layer_prefill_us")
print("| " + " | ".join(hdr) + " |")
print("|" + "---|" * len(hdr))
for r in rows:
    c = r["case"]
    if "error" in r:
        print(f"| {c['gpu']} | {c['tp']} | {c['b']} | {c['s']} | {c['g']} | ERROR: {r['error'][:120]} |"); continue
    vals = [c["gpu"], c["tp"], c["b"], c["s"], c["g"],
            f"{r['prefill_latency']*1e3:.3f}", f"{r['decode_latency']*1e3:.4f}", f"{r['total_latency']:.4f}",
            f"{r['prefill_tokens_per_sec']:.1f}", f"{r['decode_tokens_per_sec']:.2f}", f"{r['total_tokens_per_sec']:.2f}",
            f"{r['weight_memory_per_gpu']/GiB:.3f}", f"{r['kv_cache_memory_per_gpu']/GiB:.4f}",
            f"{r['kv_cache_latency']*1e3:.4f}",
            f"{r['prefill_latency_fwd_tp_comm']*1e3:.4f}", f"{r['decode_latency_fwd_tp_comm']*1e3:.4f}",
            f"{r['decode_latency_fwd_tp_comm']/80/2*1e6:.3f}", f"{r['prefill_latency_fwd_tp_comm']/80/2*1e6:.3f}"]
    print("| " + " | ".join(map(str, vals)) + " |")

# ---- breakdown table (ms), per forward pass (prefill) / per generated token (decode) ----
print()
keys = ["attn", "mlp", "layernorm", "tp_comm", "input_embedding", "output_embedding_loss"]
hdr = ["gpu", "TP", "B", "in", "out"] + [f"P_{k}" for k in keys] + [f"D_{k}" for k in keys] + ["D_kv_cache"]
print("| " + " | ".join(hdr) + " |")
print("|" + "---|" * len(hdr))
for r in rows:
    if "error" in r: continue
    c = r["case"]
    vals = [c["gpu"], c["tp"], c["b"], c["s"], c["g"]]
    vals += [f"{r['prefill_latency_fwd_'+k]*1e3:.4f}" for k in keys]
    vals += [f"{r['decode_latency_fwd_'+k]*1e3:.4f}" for k in keys]
    vals += [f"{r['kv_cache_latency']*1e3:.4f}"]
    print("| " + " | ".join(map(str, vals)) + " |")
