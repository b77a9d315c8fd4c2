# builds the probe (sm_90a); run from the repository root. probe_fp8mma_run1.cu is what run 1 ran (as dist/probe/fp8mma,
# here fp8mma_run1: the products alone); probe_fp8mma.cu is run 2's (`fp8mma chain`: the gate/up -> SiLU x up -> down
# chain), the same file with the chain mode, the scaled (SC) form and the MINB bound added, whose extra template and
# kernel parameters change how ptxas allocates the alone mode's kernels (repeat run 1 with probe_fp8mma_run1.cu).
set -e
mkdir -p dist/probe
D=docs/measurements/2026-11-28-issue15-fp8-mma-h200
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iroofline-cuda/src/main/cuda $D/probe_fp8mma_run1.cu \
  -o dist/probe/fp8mma_run1 -cudart static
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iroofline-cuda/src/main/cuda $D/probe_fp8mma.cu \
  -o dist/probe/fp8mma -cudart static
# run 5 (`fp8mma_cls chaingu`): x in two magnitude classes, gate/up on the FP8 mma
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iroofline-cuda/src/main/cuda $D/probe_fp8mma_cls.cu \
  -o dist/probe/fp8mma_cls -cudart static
