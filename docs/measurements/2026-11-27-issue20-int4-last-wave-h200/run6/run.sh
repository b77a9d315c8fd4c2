# call 115: issue 20, INT4 at one row: the window of 2 above one wave where its last wave is the fuller (new) against
# f50b9ce (base): gemv-bench INT4 at one row over nine shapes (base, new, new, base); Llama-3-70B INT4 decode step at
# batch 1 x 1k (base, new, new, base)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call115.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
B="--formats INT4 --rows 1 --shape 10240x8192 --shape 14336x4096 --shape 28672x4096 --shape 28672x8192 --shape 57344x8192 --shape 8192x8192 --shape 8192x28672 --shape 6144x4096 --shape 4096x14336 --no-cublas --no-layer"
i=0; for v in base new new base; do i=$((i+1))
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline gemv-bench $B --markdown /tmp/o/gemv-$i-$v.md" > /tmp/o/gemv-$i-$v.txt 2>&1
  save gemv-$i-$v
done
i=0; for v in base new new base; do i=$((i+1))
  timeout 90 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-70b --weights INT4 --batch 1 --context 1024" > /tmp/o/decode-$i-$v.txt 2>&1
  save decode-$i-$v
done
grep -a "us/step" /tmp/o/decode-*.txt | sed -E 's/ programmatic: ([0-9.]+) us.*/ \1/'
