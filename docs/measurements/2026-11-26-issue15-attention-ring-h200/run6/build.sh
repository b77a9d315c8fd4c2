# run 6: probe.cu here, decode.cu (c496685) patched by variants.diff here; run with an argument: FP16 only
set -e
cd src
b() { nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I. probe.cu -o ../$1 -cudart static -DVARIANT="\"$1\"" "${@:2}" & }
b new
b b6 -DPROBE_BLOCKS=6
wait
b t16 -DPROBE_MMA_TILE=16384 -DPROBE_MMA_STAGES=2
b r16 -DPROBE_RCOLS=16
wait
