#!/bin/bash
# Reproduce everything in /work/peers/out. Uses Debian's /usr/bin/python3 (apt packages), NOT the pyenv python3.
# Prereqs (as root): apt-get install -y python3-numpy python3-pandas python3-scipy python3-fire python3-tabulate \
#   python3-matplotlib python3-tqdm python3-yaml python3-seaborn python3-ipython python3-pytest
set -e
cd /work/peers
mkdir -p out
# llm-analysis (commit d841e40aec8c84b9e76ba9cfbce67418adb172bd)
/usr/bin/python3 run_llm_analysis.py 2>/dev/null > out/llm_analysis_table.md
(cd llm-analysis && /usr/bin/python3 -m llm_analysis.analysis infer --model_name upstage_Llama-2-70b-instruct-v2 \
   --gpu_name h100-sxm-80gb --dtype_name w16a16e16 --tp_size 8 --batch_size_per_gpu 1 --seq_len 512 \
   --num_tokens_to_generate 128 --log_level DEBUG 2>&1 | sed 's/\x1b\[[0-9;]*m//g' > ../out/llm_analysis_cli_h100_tp8_b1_debug.log)
# GenZ (commit 091bdd0a2777dfe4d405a8fcdd91c8f12b474bf3); paretoset taken from github tommyod/paretoset (not in apt)
export PYTHONPATH=/work/peers/paretoset:/work/peers/GenZ-LLM-Analyzer
(cd GenZ-LLM-Analyzer && /usr/bin/python3 ../run_genz.py > ../out/genz_table.md)
/usr/bin/python3 genz_dump_ops.py > out/genz_ops_h100_b1_512_128.txt
/usr/bin/python3 make_summary.py > out/summary_side_by_side.md
