# call 109 (H200): issue 20, NVFP4 at one row on grids of up to 4 blocks an SM on gemv_nvfp4_f16_m1_tiled_b4 (new)
# against 6a38a75 (base): GemvKernelsIT tiledWeights on new; gemv-bench NVFP4 at one row over nine shapes (base, new,
# new, base); Llama-3-8B NVFP4 decode step at batch 1 x 1k (base, new)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call109.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
timeout 120 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*tiledWeights'" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -E "tests (successful|failed|aborted)" /tmp/o/it.txt; grep -a -B2 -A8 "✘" /tmp/o/it.txt | head -20
B="--formats NVFP4 --rows 1 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672 --shape 4096x4096 --shape 6144x4096 --shape 28672x4096 --shape 4096x14336 --shape 2048x14336 --shape 2096x8576 --no-cublas --no-layer"
i=0; for v in base new new base; do i=$((i+1))
  timeout 40 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline gemv-bench $B --markdown /tmp/o/gemv-$i-$v.md" > /tmp/o/gemv-$i-$v.txt 2>&1
  save gemv-$i-$v
done
for v in base new; do
  timeout 40 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights NVFP4 --batch 1 --context 1024" > /tmp/o/decode-$v.txt 2>&1
  save decode-$v
done
grep -a "us/step" /tmp/o/decode-*.txt | sed -E 's/ programmatic: ([0-9.]+) us.*/ \1/'
