# call 103 (H200): issue 20, MXFP4 with FP16 activations on the blocked layout (new) against 3afed11 (base):
# the tiled GEMV ITs on new; gemv-bench MXFP4 at 1, 2, 4, 8, 16, 32 rows over seven shapes (base, new, new, base);
# Llama-3-8B MXFP4 decode steps at batch 1, 8, 16 x 1k (base, new)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call103.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
timeout 170 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*([Tt]iled|Mxfp4|mxfp4).*'" 2>&1 | strip_ansi > /tmp/o/it-tiled.txt
save it-tiled; grep -E "tests (successful|failed|aborted)" /tmp/o/it-tiled.txt; grep -a -B2 -A8 "✘" /tmp/o/it-tiled.txt | head -30
B="--formats MXFP4 --rows 1,2,4,8,16,32 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672 --shape 4096x4096 --shape 6144x4096 --shape 28672x4096 --shape 4096x14336 --no-cublas --no-layer"
i=0; for v in base new new base; do i=$((i+1))
  timeout 90 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline gemv-bench $B --markdown /tmp/o/gemv-$i-$v.md" > /tmp/o/gemv-$i-$v.txt 2>&1
  save gemv-$i-$v
done
for v in base new; do
  timeout 70 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights MXFP4 --batch 1,8,16 --context 1024" > /tmp/o/decode-$v.txt 2>&1
  save decode-$v
done
grep -a "us/step" /tmp/o/decode-*.txt | sed -E 's/ programmatic: ([0-9.]+) us.*/ \1/'
