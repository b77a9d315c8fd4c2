# run 2: thread-block cluster attention variants (probe.cu) beside the split pass and its merge, on the tree of run 1
# (variant.diff there). Built here, run on the device:
#   cd roofline-cuda/src/main/cuda && nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I. probe.cu -o probe -cudart static
#   ./probe > output.txt
# vNN_TTT_SxB: clusters of NN blocks of TTT threads, a ring of S tiles of B KiB; "max active clusters" is
# cudaOccupancyMaxActiveClusters for a grid of 8 KV heads x NN blocks. Times: means of 40 back-to-back launches over
# 4 KV buffer sets of 64 MiB each (K and V), so every launch reads from DRAM.
