# call 129: issue 20, the K split over clusters of 2 at 9 to 16 rows with its final rule (rows of at least 8192
# columns) (new) against 6fc2419 (base): gemv-bench NVFP4 / MXFP4 at 16 rows over three shapes (base, new, new, base);
# Llama-3-8B NVFP4 and MXFP4 decode steps at batch 16 x 1k (base, new, new, base)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call129.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
B="--formats NVFP4,MXFP4 --rows 16 --shape 4096x4096 --shape 4096x14336 --shape 2048x8192 --no-cublas --no-layer"
i=0; for v in base new new base; do i=$((i+1))
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline gemv-bench $B --markdown /tmp/o/gemv-$i-$v.md" > /tmp/o/gemv-$i-$v.txt 2>&1
  save gemv-$i-$v
done
for w in NVFP4 MXFP4; do
i=0; for v in base new new base; do i=$((i+1))
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights $w --batch 16 --context 1024" > /tmp/o/decode-$w-$i-$v.txt 2>&1
  save decode-$w-$i-$v
done; done
grep -a "us/step" /tmp/o/decode-*.txt | sed -E 's/ programmatic: ([0-9.]+) us.*/ \1/'
