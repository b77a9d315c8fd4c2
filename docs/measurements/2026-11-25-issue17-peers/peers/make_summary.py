#!/usr/bin/env python3
# Side-by-side summary from out/*.json (H100 and A100, both tools)
import json
la = json.load(open('out/llm_analysis_results.json')); gz = json.load(open('out/genz_results.json'))
GiB = 1024**3
gmap = {'h100-sxm-80gb': 'H100_GPU', 'a100-sxm-80gb': 'A100_80GB_GPU'}
G = {(r['system'], r['tp'], r['b'], r['s'], r['g']): r for r in gz}
print("| GPU | TP | B | in/out | TTFT ms (LA / GenZ) | TPOT ms (LA / GenZ@ctx=in+out) | total s (LA / GenZ) | weights GiB/GPU (LA / GenZ prefill-model) | KV GiB/GPU @in+out (LA / GenZ) | AR per layer decode us (LA / GenZ) | AR per layer prefill us (LA / GenZ) |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in la:
    c = r['case']; g = G[(gmap[c['gpu']], c['tp'], c['b'], c['s'], c['g'])]
    print(f"| {c['gpu']} | {c['tp']} | {c['b']} | {c['s']}/{c['g']} | {r['prefill_latency']*1e3:.2f} / {g['ttft_ms']:.2f} | "
          f"{r['decode_latency']*1e3:.3f} / {g['tpot_end_ms']:.3f} | {r['total_latency']:.3f} / {g['total_ms_tool']/1e3:.3f} | "
          f"{r['weight_memory_per_gpu']/GiB:.3f} / {g['weights_prefill_MiB']/1024:.3f} | {r['kv_cache_memory_per_gpu']/GiB:.4f} / {g['kv_end_MiB']/1024:.4f} | "
          f"{r['decode_latency_fwd_tp_comm']/160*1e6:.2f} / {g['d_AR_layer_us']:.2f} | {r['prefill_latency_fwd_tp_comm']/160*1e6:.2f} / {g['p_AR_layer_us']:.2f} |")
