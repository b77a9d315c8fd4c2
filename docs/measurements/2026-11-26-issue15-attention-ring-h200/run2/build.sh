# run 2: as run 1, with the block times (PROBE_TIMES) and the pad (PROBE_PAD) of ../variants.diff
set -e
cd src
b() { nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I. probe.cu -o ../$1 -cudart static -DVARIANT="\"$1\"" "${@:2}" & }
b base
b s3 -DPROBE_STAGES=3
wait
b s2 -DPROBE_STAGES=2
b s3pad -DPROBE_STAGES=3 -DPROBE_PAD=8
wait
b nok -DPROBE_NOK
b nov -DPROBE_NOV
wait
b base_t -DPROBE_TIMES
b s3_t -DPROBE_STAGES=3 -DPROBE_TIMES
wait
b nc_t -DPROBE_NOCOMPUTE -DPROBE_TIMES
b s3nc -DPROBE_STAGES=3 -DPROBE_NOCOMPUTE
wait
