# run 8: the kept kernel (3b5df9b decode.cu, run6/probe.cu with probe.diff) with the split count sized for waves of
# 5 (occupancy), 4 and 3 blocks an SM (SLOTS), FP16 only. Built here:
#   cd roofline-cuda/src/main/cuda && nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I. probe.cu -o kept -cudart static -DVARIANT="\"kept\""
set -e
cd dist/probe5
xz -dc kept.xz > kept; chmod +x kept
nvidia-smi --query-gpu=name --format=csv,noheader
for r in 1 2; do for s in occ 4 3; do echo "== slots $s round $r"; if [ $s = occ ]; then ./kept f16; else SLOTS=$s ./kept f16; fi; done; done 2>&1 | tee $OUT/output.txt
