# builds the probe into dist/probe/fp8v (sm_90a); run from the repository root. probe_fp8.cu is run 6's version: run 1
# timed five more block shapes (w4u2r3, w4u4r1, w1u4r1 and w4u2r2 bounded to 12 and 14 blocks an SM) and no stream-K
# kernel, run 2 the stream-K kernel at 2, 4 and 8 steps in flight and no double-buffered kernel (their rows in
# run1/probe.txt and run2/probe.txt name them)
set -e
mkdir -p dist/probe
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iroofline-cuda/src/main/cuda \
  docs/measurements/2026-11-27-issue15-fp8-gateup-grid-h200/probe_fp8.cu -o dist/probe/fp8v -cudart static
