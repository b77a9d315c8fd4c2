# builds the probe into dist/probe/wave (sm_90a); run from the repository root: `wave` (alone), `wave chain`
set -e
mkdir -p dist/probe
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iroofline-cuda/src/main/cuda \
  docs/measurements/2026-11-28-issue15-fp8-one-wave-h200/probe_wave.cu -o dist/probe/wave -cudart static
