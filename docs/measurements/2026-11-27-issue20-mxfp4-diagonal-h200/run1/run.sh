# call 122: issue 20, the one-row E2M1 step with x on the B fragment's diagonal (dg, each D column one block's sum,
# scaled in FP32 once a chain): tsk at one row, MXFP4 and NVFP4, nine shapes, two rounds; SASS counts
xz -dc dist/probe/tsk-dg.xz > /tmp/tsk && chmod +x /tmp/tsk
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call122.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for r in 1 2; do
for f in MXFP4 NVFP4; do
for sh in 8192x8192 28672x8192 8192x28672 4096x4096 6144x4096 28672x4096 4096x14336 1024x4096 2096x8576; do
  timeout 100 /tmp/tsk $f $sh 1 > /tmp/o/$r-$f-$sh.txt 2>&1
done; done; save round$r; done
grep -h "all checks\|FAIL\|NO" /tmp/o/*.txt | sort | uniq -c
CUOBJ=/usr/local/cuda/bin/cuobjdump
for k in dg_mxfp4_r2 gemv_mxfp4_f16_m1_tiled_r2 dg_mxfp4_u2_b5 gemv_mxfp4_f16_m1_tiled dg_nvfp4_u2_b5 gemv_nvfp4_f16_m1_tiled dg_nvfp4_u4_b4 gemv_nvfp4_f16_m1_tiled_b4; do
  $CUOBJ -sass -fun $k /tmp/tsk > /tmp/o/sass-$k.txt 2>&1
  echo "$k: $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' /tmp/o/sass-$k.txt) instr, HMMA $(grep -c HMMA /tmp/o/sass-$k.txt), HMUL2 $(grep -c HMUL2 /tmp/o/sass-$k.txt), FFMA $(grep -c FFMA /tmp/o/sass-$k.txt), LDG $(grep -c LDG /tmp/o/sass-$k.txt)"
done | tee /tmp/o/sass-counts.txt
save done
