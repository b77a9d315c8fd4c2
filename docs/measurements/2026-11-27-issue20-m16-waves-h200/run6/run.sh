# call 139: issue 20, INT4 and NVFP4 at 9 to 16 rows one tile a block up to 3 tiles an SM (gemv_int4_f16_m16_tiled_b4,
# gemv_nvfp4_f16_m16_tiled_b3; new) against the same jar with 01b011f's GemvKernels classes (base: the two-tile
# kernel there): gemv-bench INT4 / NVFP4 at 12 and 16 rows over seven shapes (base, new, new, base); Llama-3-8B INT4 /
# NVFP4 batch 16 x 1k steps (base, new, new, base); GemvKernelsIT tiledWeights on new
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call139.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
patchjar /tmp/base.jar /tmp/b/gpu/lib/roofline-cuda.jar dist/packed/base-classes.zip
unzip -p /tmp/base.jar dev/roofline/cuda/kernels/GemvKernels.class | sha256sum; unzip -p /tmp/b/gpu/lib/roofline-cuda.jar dev/roofline/cuda/kernels/GemvKernels.class | sha256sum
variant base /tmp/base.jar; ln -sfn /tmp/b/gpu /tmp/b/new
B="--formats INT4,NVFP4 --rows 12,16 --shape 1024x4096 --shape 2048x8192 --shape 4096x4096 --shape 6144x4096 --shape 4096x14336 --shape 4240x14336 --shape 8192x8192 --no-cublas --no-layer"
if [ "${SKIP_GEMV:-0}" != 1 ]; then
i=0; for v in base new new base; do i=$((i+1))
  timeout 90 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline gemv-bench $B --markdown /tmp/o/gemv-$i-$v.md" > /tmp/o/gemv-$i-$v.txt 2>&1
  save gemv-$i-$v
done
fi
if [ "${SKIP_DECODE:-0}" != 1 ]; then
i=0; for v in base new new base; do i=$((i+1)); for w in INT4 NVFP4; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights $w --batch 16 --context 1024" > /tmp/o/decode-$w-$i-$v.txt 2>&1
done; save decode-$i-$v; done
grep -a "us/step" /tmp/o/decode-*.txt | sed -E 's/ programmatic: ([0-9.]+) us.*/ \1/'
fi
if [ "${SKIP_IT:-0}" != 1 ]; then
timeout 240 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*#tiledWeights(\(.*)?'" 2>&1 | strip_ansi > /tmp/o/it.txt
grep -E "tests (successful|failed)" /tmp/o/it.txt; grep -B2 -A8 "✘" /tmp/o/it.txt | head -40; save it
fi
for f in /tmp/o/gemv-*.txt; do echo "== $f"; grep -E "^  (INT4|NVFP4) " $f; done
