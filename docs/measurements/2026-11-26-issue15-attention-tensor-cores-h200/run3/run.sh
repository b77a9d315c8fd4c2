# run 3: the split pass and its merge at one row (32 heads on 8 KV heads, D = 128, FP16 caches) built from 2fa7673
# (basep) and from the tree with the tensor-core phases (mma); probe.cu also checks each output against a CPU double
# reference. Built here, run on the device:
#   cd roofline-cuda/src/main/cuda && nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I. probe.cu -o mma -cudart static
#   (basep: the same in a checkout of 2fa7673)
#   for r in 1 2; do echo "== base $r"; ./basep; echo "== mma $r"; ./mma; done > output.txt
# Times: means of 40 back-to-back launches of both kernels over 4 KV buffer sets (128 MiB each), so every launch
# reads from DRAM.
