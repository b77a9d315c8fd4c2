# call 102 (H100): issue 20, INT4's FP16 16-row tiled kernel computing both B fragments at every row count (new; its
# machine code is call 101's) against 148a59e (base): gemv-bench INT4 at 12 and 16 rows over seven shapes (base, new,
# new, base), Llama-3-8B INT4 decode steps at batch 16 x 1k (base, new)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call102.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
B="--formats INT4 --rows 12,16 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672 --shape 4096x4096 --shape 6144x4096 --shape 28672x4096 --shape 4096x14336 --no-cublas --no-layer"
i=0; for v in base new new base; do i=$((i+1))
  timeout 80 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline gemv-bench $B --markdown /tmp/o/gemv-$i-$v.md" > /tmp/o/gemv-$i-$v.txt 2>&1
  save gemv-$i-$v
done
for v in base new; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights INT4 --batch 16 --context 1024" > /tmp/o/decode-$v.txt 2>&1
  save decode-$v
done
grep -a "us/step" /tmp/o/decode-*.txt | sed -E 's/ programmatic: ([0-9.]+) us.*/ \1/'
