# call 128 (H100, SKIP_IT=1): issue 20, NVFP4 and MXFP4 at 9 to 16 rows on grids of at most one block an SM: each block's K split over a
# cluster of 2 (new) against 6fc2419 (base): GemvKernelsIT tiled cases on new; gemv-bench INT4 / NVFP4 / MXFP4 at 12 and
# 16 rows over eight shapes (base, new, new, base); Llama-3-8B NVFP4 and MXFP4 decode steps at batch 16 x 1k (base,
# new, new, base)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call128.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
if [ "${SKIP_IT:-0}" != 1 ]; then
timeout 220 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[Tt]iled.*'" 2>&1 | strip_ansi > /tmp/o/it.txt
grep -E "tests (successful|failed)" /tmp/o/it.txt; save it
fi
B="--formats INT4,NVFP4,MXFP4 --rows 12,16 --shape 4096x14336 --shape 4096x4096 --shape 2048x8192 --shape 4224x14336 --shape 4352x14336 --shape 6144x4096 --shape 8192x8192 --shape 28672x4096 --no-cublas --no-layer"
i=0; for v in base new new base; do i=$((i+1))
  timeout 90 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline gemv-bench $B --markdown /tmp/o/gemv-$i-$v.md" > /tmp/o/gemv-$i-$v.txt 2>&1
  save gemv-$i-$v
done
for w in NVFP4 MXFP4; do
i=0; for v in base new new base; do i=$((i+1))
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights $w --batch 16 --context 1024" > /tmp/o/decode-$w-$i-$v.txt 2>&1
  save decode-$w-$i-$v
done; done
grep -a "us/step" /tmp/o/decode-*.txt | sed -E 's/ programmatic: ([0-9.]+) us.*/ \1/'
