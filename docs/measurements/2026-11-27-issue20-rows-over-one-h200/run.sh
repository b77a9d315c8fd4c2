# call 151: issue 20, gemv-bench with the rows-against-one-row table (RowsOverOne) on main: INT4, NVFP4, MXFP4 at 1 and
# 16 rows, the three shapes, twice
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call151.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
B="--formats INT4,NVFP4,MXFP4 --rows 1,16 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672 --no-cublas --no-layer"
for i in 1 2; do
  timeout 200 bash -c "source dist/packed/common.sh; roofline gemv-bench $B --markdown /tmp/o/gemv-$i.md --csv /tmp/o/gemv-$i.csv" > /tmp/o/gemv-$i.txt 2>&1
  save gemv-$i
done
for i in 1 2; do sed -n '/Rows against one row/,$p' /tmp/o/gemv-$i.txt; done
