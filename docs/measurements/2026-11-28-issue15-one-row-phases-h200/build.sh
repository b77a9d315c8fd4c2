# builds the probes into dist/packed (sm_90a); run from the repository root on ae56322's tree. stamps.diff adds the
# stamps (under ROOFLINE_STAMPS) and attention_split's TRIGGER (default true: runs 2-4 ran before it was added, with
# the same code); stages4.diff on top of it gives run 3's stamps4.
set -e
R=docs/measurements/2026-11-28-issue15-one-row-phases-h200
rm -rf /tmp/var && mkdir -p /tmp/var && cp -r roofline-cuda/src/main/cuda /tmp/var/ && patch -s -p5 -d /tmp/var/cuda < $R/stamps.diff
b() { nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a "${@:3}" -I"$2" -o dist/packed/$1 -cudart static; }
mkdir -p dist/packed
b stamps /tmp/var/cuda -DROOFLINE_STAMPS $R/probe_stamps.cu
b tail /tmp/var/cuda $R/probe_tail.cu
cp -r /tmp/var/cuda /tmp/var/cuda4 && patch -s -p5 -d /tmp/var/cuda4 < $R/stages4.diff
b stamps4 /tmp/var/cuda4 -DROOFLINE_STAMPS $R/probe_stamps.cu
