#!/usr/bin/env python3
# Per-operator GenZ dataframes (one layer shown once; Repeat=80) for H100 TP4/TP8, B=1, 512/128.
import warnings, sys
warnings.filterwarnings("ignore")
sys.path.insert(0, "/work/peers/GenZ-LLM-Analyzer"); sys.path.insert(0, "/work/peers/paretoset")
import pandas as pd
pd.set_option('display.width', 300); pd.set_option('display.max_columns', 40)
from GenZ import prefill_moddeling, decode_moddeling
cols = ['Layer Name', 'Op Type', 'Dimension', 'Bound', 'Latency (msec)', 'Compute time (msec)', 'Memory time (msec)',
        'Communication time (msec)', 'Num ops (MFLOP)', 'Input_a (MB)', 'Input_w (MB)', 'Output (MB)']
for tp in [4, 8]:
    c = dict(model='meta-llama/Llama-2-70B', batch_size=1, system_name='H100_GPU', system_eff=1, bits='bf16',
             tensor_parallel=tp, parallelism_hierarchy=f"TP{{{tp}}}_EP{{1}}_PP{{1}}")
    p = prefill_moddeling(input_tokens=512, **c)
    d = decode_moddeling(input_tokens=512, output_tokens=128, Bb=1, **c)
    for tag, o in [('prefill', p), ('decode(ctx=512+128)', d)]:
        print(f"\n### H100_GPU TP{tp} B1 {tag}\n")
        print(o['model_df'][cols].to_markdown(index=False) if hasattr(pd.DataFrame, 'to_markdown') else o['model_df'][cols].to_string())
        print(); print(o['summary_table'].T.to_string()); print(o['Runtime_breakdown'])
