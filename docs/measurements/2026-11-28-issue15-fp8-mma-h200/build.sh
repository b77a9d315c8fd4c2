# builds the probe (sm_90a); run from the repository root. probe_fp8mma.cu is run 2's (`fp8mma chain`: the gate/up ->
# SiLU x up -> down chain); run 1 and run 5 ran it with a patch applied: run1.diff gives run 1's form (the products
# alone, before the chain mode, the scaled (SC) form and the MINB bound were added, whose extra template and kernel
# parameters change how ptxas allocates the alone mode's kernels; run 1 ran it as dist/probe/fp8mma), cls.diff run 5's
# (`fp8mma_cls chaingu`: x in two magnitude classes, gate/up on the FP8 mma).
set -e
mkdir -p dist/probe
D=docs/measurements/2026-11-28-issue15-fp8-mma-h200
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
NVCC=(nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iroofline-cuda/src/main/cuda -cudart static)
patch -s -o "$T/probe_fp8mma_run1.cu" "$D/probe_fp8mma.cu" < "$D/run1.diff"
patch -s -o "$T/probe_fp8mma_cls.cu" "$D/probe_fp8mma.cu" < "$D/cls.diff"
"${NVCC[@]}" "$T/probe_fp8mma_run1.cu" -o dist/probe/fp8mma_run1
"${NVCC[@]}" "$D/probe_fp8mma.cu" -o dist/probe/fp8mma
"${NVCC[@]}" "$T/probe_fp8mma_cls.cu" -o dist/probe/fp8mma_cls
