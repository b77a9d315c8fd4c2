# call 52: SASS of the one-row tiled kernels (sm_90a cubin of gemv.cu), for instruction counts
mkdir -p /tmp/o; rm -f /tmp/o/*; xz -dc dist/sass/gemv.cubin.xz > /tmp/gemv.cubin
CO=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1); echo "cuobjdump: $CO"
for k in gemv_mxfp4_f16_m1_tiled gemv_nvfp4_f16_m1_tiled gemv_int4_f16_m1_tiled gemv_mxfp4_f16_m1_tiled_r2 gemv_int4_f16_m1_tiled_r2 gemv_mxfp4_f16_m16_tiled; do
  $CO -sass -fun $k /tmp/gemv.cubin > /tmp/o/sass-$k.txt 2>&1; echo "$k $(grep -c '/\*[0-9a-f]*\*/' /tmp/o/sass-$k.txt)"
done
tar -C /tmp -czf $OUT/call52.tgz o
