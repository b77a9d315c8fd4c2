#!/usr/bin/env python3
# Run: cd /work/peers/GenZ-LLM-Analyzer && PYTHONPATH=/work/peers/paretoset:. /usr/bin/python3 /work/peers/run_genz.py
import warnings, json, sys
warnings.filterwarnings("ignore")
sys.path.insert(0, "/work/peers/GenZ-LLM-Analyzer"); sys.path.insert(0, "/work/peers/paretoset")
from GenZ import prefill_moddeling, decode_moddeling

MODEL = 'meta-llama/Llama-2-70B'   # GenZ/Models/Model_sets/meta.py:94
T = 'Latency (msec)'

def per_op(df, name):
    r = df[df['Layer Name'] == name]
    return float(r[T].values[0]) if len(r) else 0.0

def run(system, tp, b, s, g):
    common = dict(model=MODEL, batch_size=b, system_name=system, system_eff=1, bits='bf16',
                  tensor_parallel=tp, pipeline_parallel=1, expert_parallel=1,
                  collective_strategy='GenZ', parallelism_hierarchy=f"TP{{{tp}}}_EP{{1}}_PP{{1}}")
    p = prefill_moddeling(input_tokens=s, **common)
    d_end = decode_moddeling(input_tokens=s, output_tokens=g, Bb=1, **common)   # KV context s+g (tool/Website convention)
    d_mid = decode_moddeling(input_tokens=s, output_tokens=g // 2, Bb=1, **common)
    d_start = decode_moddeling(input_tokens=s, output_tokens=0, Bb=1, **common)  # first decode step, context s
    ps, ds = p['summary_table'], d_end['summary_table']
    return dict(system=system, tp=tp, b=b, s=s, g=g,
        ttft_ms=float(p['Latency']), prefill_tok_s=float(p['Throughput']),  # NB: GenZ 'Throughput' for prefill = 1000*batch/latency (requests/s)
        tpot_end_ms=float(d_end['Latency']), tpot_mid_ms=float(d_mid['Latency']), tpot_start_ms=float(d_start['Latency']),
        decode_tok_s_end=float(d_end['Throughput']),
        total_ms_tool=float(p['Latency']) + g * float(d_end['Latency']),
        total_ms_mid=float(p['Latency']) + g * float(d_mid['Latency']),
        weights_prefill_MiB=float(ps['Total Weights (MB)'].values[0]), weights_decode_MiB=float(ds['Total Weights (MB)'].values[0]),
        kv_prefill_MiB=float(ps['KV Cache (MB)'].values[0]), kv_end_MiB=float(ds['KV Cache (MB)'].values[0]),
        p_attn_ms=float(ps['Attn Latency (msec)'].values[0]), p_linear_ms=float(ps['Linear Latency (msec)'].values[0]), p_comm_ms=float(ps['Comm Latency (msec)'].values[0]),
        d_attn_ms=float(ds['Attn Latency (msec)'].values[0]), d_linear_ms=float(ds['Linear Latency (msec)'].values[0]), d_comm_ms=float(ds['Comm Latency (msec)'].values[0]),
        p_AR_layer_us=1e3 * per_op(p['model_df'], 'MHA AR'), d_AR_layer_us=1e3 * per_op(d_end['model_df'], 'MHA AR'),
        p_embAR_us=1e3 * per_op(p['model_df'], 'Emb_AR'), p_clsAG_us=1e3 * per_op(p['model_df'], 'classifier_AG'), d_clsAG_us=1e3 * per_op(d_end['model_df'], 'classifier_AG'),
        p_breakdown=p['Runtime_breakdown'].to_dict(), d_breakdown=d_end['Runtime_breakdown'].to_dict())

rows = []
for system in ['H100_GPU', 'A100_80GB_GPU']:
    for (s, g) in [(512, 128), (2048, 256)]:
        for tp in [2, 4, 8]:
            for b in [1, 16]:
                try:
                    rows.append(run(system, tp, b, s, g))
                except Exception as e:
                    rows.append(dict(system=system, tp=tp, b=b, s=s, g=g, error=repr(e)))
json.dump(rows, open('/work/peers/out/genz_results.json', 'w'), indent=1)

hdr = ["system", "TP", "B", "in", "out", "TTFT_ms", "TPOT_start_ms", "TPOT_mid_ms", "TPOT_end_ms", "total_s(TTFT+out*TPOT_end)",
       "tool_prefill_Throughput(=1000*B/TTFT, req/s)", "prefill_tok/s(=B*in/TTFT, computed here)", "decode_tok/s(end)", "W/GPU_GiB(prefill,incl.emb)", "W/GPU_GiB(decode)", "KV/GPU_GiB(s+g)",
       "P_comm_ms", "D_comm_ms", "AR/layer_prefill_us", "AR/layer_decode_us"]
print("| " + " | ".join(hdr) + " |"); print("|" + "---|" * len(hdr))
for r in rows:
    if 'error' in r:
        print(f"| {r['system']} | {r['tp']} | {r['b']} | {r['s']} | {r['g']} | ERROR {r['error'][:150]} |"); continue
    v = [r['system'], r['tp'], r['b'], r['s'], r['g'], f"{r['ttft_ms']:.3f}", f"{r['tpot_start_ms']:.4f}", f"{r['tpot_mid_ms']:.4f}",
         f"{r['tpot_end_ms']:.4f}", f"{r['total_ms_tool']/1e3:.4f}", f"{r['prefill_tok_s']:.2f}", f"{r['b']*r['s']/r['ttft_ms']*1e3:.1f}", f"{r['decode_tok_s_end']:.2f}",
         f"{r['weights_prefill_MiB']/1024:.3f}", f"{r['weights_decode_MiB']/1024:.3f}", f"{r['kv_end_MiB']/1024:.4f}",
         f"{r['p_comm_ms']:.4f}", f"{r['d_comm_ms']:.4f}", f"{r['p_AR_layer_us']:.3f}", f"{r['d_AR_layer_us']:.3f}"]
    print("| " + " | ".join(map(str, v)) + " |")

print()
hdr = ["system", "TP", "B", "in", "out", "P_linear_ms", "P_attn_ms", "P_comm_ms", "P_embedding(emb+cls GEMMs)_ms", "P_EmbAR_us", "P_clsAG_us",
       "D_linear_ms", "D_attn_ms", "D_comm_ms", "D_embedding(cls GEMM)_ms", "D_clsAG_us"]
print("| " + " | ".join(hdr) + " |"); print("|" + "---|" * len(hdr))
for r in rows:
    if 'error' in r: continue
    pb, db = r['p_breakdown'], r['d_breakdown']
    v = [r['system'], r['tp'], r['b'], r['s'], r['g'], f"{r['p_linear_ms']:.4f}", f"{r['p_attn_ms']:.4f}", f"{r['p_comm_ms']:.4f}",
         f"{pb['Embedding'] - (r['p_embAR_us'] + r['p_clsAG_us'])/1e3:.4f}", f"{r['p_embAR_us']:.3f}", f"{r['p_clsAG_us']:.3f}",
         f"{r['d_linear_ms']:.4f}", f"{r['d_attn_ms']:.5f}", f"{r['d_comm_ms']:.4f}", f"{db['Embedding'] - r['d_clsAG_us']/1e3:.4f}", f"{r['d_clsAG_us']:.3f}"]
    print("| " + " | ".join(map(str, v)) + " |")
