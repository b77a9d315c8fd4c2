# builds the probes into dist/packed (sm_90a); run from the repository root, on the tree the record names.
# merge: probe_merge.cu on the tree's sources (runs 1-3); merge_ev: the same on a copy of the sources with early-v.diff
# applied (run 3); ring: probe_ring.cu (run 4)
set -e
R=docs/measurements/2026-11-28-issue15-attention-merge-h200
b() { nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I"$2" "$R/$3" -o dist/packed/$1 -cudart static; }
mkdir -p dist/packed
b merge roofline-cuda/src/main/cuda probe_merge.cu
rm -rf /tmp/var && mkdir -p /tmp/var && cp -r roofline-cuda/src/main/cuda /tmp/var/
patch -s -d /tmp/var/cuda < $R/early-v.diff
b merge_ev /tmp/var/cuda probe_merge.cu
b ring roofline-cuda/src/main/cuda probe_ring.cu
