# builds the probe into dist/probe/fp8mma (sm_90a); run from the repository root. `fp8mma` times the products alone
# (run 1), `fp8mma chain` the gate/up -> SiLU x up -> down chain (run 2). Run 1 ran the file before the chain mode,
# the scaled (SC) form and the MINB bound were added; its kernels are the defaults of the same template.
set -e
mkdir -p dist/probe
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iroofline-cuda/src/main/cuda \
  docs/measurements/2026-11-28-issue15-fp8-mma-h200/probe_fp8mma.cu -o dist/probe/fp8mma -cudart static
