# run 1: the FP16-only predecessor of ../probe.cu, decode.cu patched by ../variants.diff
set -e
cd src
b() { nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I. probe.cu -o ../$1 -cudart static -DVARIANT="\"$1\"" "${@:2}" & }
b base
b nocompute -DPROBE_NOCOMPUTE
wait
b stages3 -DPROBE_STAGES=3
b stages5 -DPROBE_STAGES=5 -DPROBE_MAXCHUNK=256
wait
b strided -DPROBE_STRIDED
b strided_nc -DPROBE_STRIDED -DPROBE_NOCOMPUTE
wait
