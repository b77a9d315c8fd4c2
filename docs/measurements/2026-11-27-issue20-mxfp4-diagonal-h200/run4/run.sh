# call 130: issue 20 status on the final build (4975c66): gemv-bench INT4 / NVFP4 / MXFP4 at 1 and 16 rows over the
# issue's three shapes and 4096x14336, twice
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call130.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
B="--formats INT4,NVFP4,MXFP4 --rows 1,16 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672 --shape 4096x14336 --no-cublas --no-layer"
for i in 1 2; do
  timeout 90 bash -c "source dist/packed/common.sh; roofline gemv-bench $B --markdown /tmp/o/gemv-$i.md" > /tmp/o/gemv-$i.txt 2>&1
  save gemv-$i
done
