# call 132: issue 20, NVFP4 and MXFP4 at one row split over clusters of 2 on at most 2 tiles an SM and K >= 8192 (new)
# against 66dac4a (base): GemvKernelsIT tiledWeights on new; gemv-bench NVFP4 / MXFP4 at one row over six shapes
# (base, new, new, base)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call132.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
B="--formats NVFP4,MXFP4 --rows 1 --shape 2048x8192 --shape 4096x14336 --shape 4096x28672 --shape 4224x14336 --shape 4096x4096 --shape 8192x8192 --no-cublas --no-layer"
if [ "${SKIP_GEMV:-0}" != 1 ]; then
i=0; for v in base new new base; do i=$((i+1))
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline gemv-bench $B --markdown /tmp/o/gemv-$i-$v.md" > /tmp/o/gemv-$i-$v.txt 2>&1
  save gemv-$i-$v
done
fi
if [ "${SKIP_IT:-0}" != 1 ]; then
timeout 200 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*#tiledWeights(\(.*)?'" 2>&1 | strip_ansi > /tmp/o/it.txt
grep -E "tests (successful|failed)" /tmp/o/it.txt; save it
fi
