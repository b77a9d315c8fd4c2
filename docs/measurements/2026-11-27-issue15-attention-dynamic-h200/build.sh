# builds the probe into dist/probe (sm_90a); run from the repository root. dyn_s3 / dyn_s4: the dynamic pass with rings
# of 3 / 4 slots (run 1); ev_*: the shipped pass from a copy of the sources with early-trigger.diff applied, its merge
# allowed to launch once every block has issued its last tile (e0) or 2 / 4 tiles before that (e2, e4), where a block
# has at least 6 tiles (run 2)
set -e
b() { nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I"$INC" \
  docs/measurements/2026-11-27-issue15-attention-dynamic-h200/probe_dyn.cu -o dist/probe/$1 -cudart static "${@:2}"; }
mkdir -p dist/probe
INC=roofline-cuda/src/main/cuda
b dyn_s3 & b dyn_s4 -DDYN_STAGES=4 & wait
rm -rf /tmp/var && mkdir -p /tmp/var && cp -r roofline-cuda/src/main/cuda /tmp/var/
patch -s -d /tmp/var/cuda < docs/measurements/2026-11-27-issue15-attention-dynamic-h200/early-trigger.diff
INC=/tmp/var/cuda
b ev_e0 -DEARLY_MIN=6 & b ev_e2 -DEARLY_MIN=6 -DEARLY_BACK=2 & wait
b ev_e4 -DEARLY_MIN=8 -DEARLY_BACK=4
