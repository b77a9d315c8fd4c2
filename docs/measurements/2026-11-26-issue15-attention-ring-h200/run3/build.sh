# run 3: ../probe.cu, decode.cu patched by ../variants.diff; each binary runs FP16, BF16 and FP8 caches
set -e
cd src
b() { nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I. probe.cu -o ../$1 -cudart static -DVARIANT="\"$1\"" "${@:2}" & }
b base
b s4pad -DPROBE_PAD=8
wait
b s3pad -DPROBE_STAGES=3 -DPROBE_PAD=8
b s3padf2 -DPROBE_STAGES=3 -DPROBE_PAD=8 -DPROBE_F2
wait
b s3 -DPROBE_STAGES=3
wait
