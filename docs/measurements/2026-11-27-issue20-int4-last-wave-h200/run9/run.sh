# call 118: issue 20, INT4 at one row above one wave of the window: the kernel with the fullest last wave of plain, _b3,
# _r2 and the new _w2 (new) against b00409e (base): GemvKernelsIT tiled cases on new; gemv-bench INT4 at one row over
# nine shapes (base, new, new, base); Llama-3-8B INT4 decode step at batch 1 x 1k (base, new, new, base)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call118.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
B="--formats INT4 --rows 1 --shape 28672x4096 --shape 28672x8192 --shape 11264x4096 --shape 14336x4096 --shape 57344x8192 --shape 10240x8192 --shape 40960x4096 --shape 8192x8192 --shape 8192x28672 --no-cublas --no-layer"
i=0; for v in base new new base; do i=$((i+1))
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline gemv-bench $B --markdown /tmp/o/gemv-$i-$v.md" > /tmp/o/gemv-$i-$v.txt 2>&1
  save gemv-$i-$v
done
i=0; for v in base new new base; do i=$((i+1))
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights INT4 --batch 1 --context 1024" > /tmp/o/decode-$i-$v.txt 2>&1
  save decode-$i-$v
done
grep -a "us/step" /tmp/o/decode-*.txt | sed -E 's/ programmatic: ([0-9.]+) us.*/ \1/'
if [ "${IT:-1}" = 1 ]; then
timeout 260 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[Tt]iled.*'" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -E "tests (successful|failed|aborted)" /tmp/o/it.txt; grep -a -B2 -A8 "✘" /tmp/o/it.txt | head -20
fi
