# call 5 (H200): the tiled layout's 8-row kernel configurations (w4_m8.cu = ../run1/w4_layout.cu with w4_m8.diff applied, built with nvcc 13.0 for sm_90a on the
# build machine: nvcc -std=c++17 -O3 -arch=sm_90a -o dist/packed/w4m8 dist/packed/w4_m8.cu) at M = 1, 2, 8, 16 beside
# gemv.cu's row-major _w8 kernels and the tiled m8 kernel of build 3c767c0 (two tiles, two steps in flight)
S=$(date +%s); mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 200 dist/packed/w4m8 > /tmp/o/w4m8.txt 2>&1; echo rc=$?
tar -C /tmp -czf $OUT/call5.tgz o
grep -E " (2|8) " /tmp/o/w4m8.txt; tail -2 /tmp/o/w4m8.txt
