# call 6 (H200): the tiled kernels with the 8-row kernel at one tile and 4 steps in flight: GemvKernelsIT (its output
# was lost: it.txt came back empty; the same IT passed in run 8); the tile count sweep at 8 and 16 rows (w4_t4.cu = ../run1/w4_layout.cu with w4_t4.diff applied,
# built on the build machine as w4_m8.cu is); gemv-bench of the 4-bit formats with this build and with the build before
# the tiled layout (old-cuda.jar) in the same call
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call6.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 120 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed" /tmp/o/it.txt; grep -a -B2 -A10 "✘" /tmp/o/it.txt | head -40
timeout 60 dist/packed/w4t4 > /tmp/o/w4t4.txt 2>&1; echo rc=$?
save t4; grep -E "t3 u1|t4 u1|tiled m|shipped" /tmp/o/w4t4.txt | grep -E " (2|8|16) " | cut -c1-90
timeout 140 bash -c "source dist/packed/common.sh; roofline gemv-bench --formats INT4,NVFP4,MXFP4 --rows 1,2,4,8,16,32 --no-layer --markdown /tmp/o/gemv-tiled.md" > /tmp/o/gemv-tiled.txt 2>&1
save tiled; grep -E "^(8192|28672)x" /tmp/o/gemv-tiled.txt | awk '{printf "%s %s %s %s %s %s\n",$1,$2,$3,$4,$8,$10}'
variant old dist/packed/old-cuda.jar
timeout 140 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline gemv-bench --formats INT4,NVFP4,MXFP4 --rows 1,2,4,8,16,32 --no-layer --markdown /tmp/o/gemv-old.md" > /tmp/o/gemv-old.txt 2>&1
save old; grep -E "^(8192|28672)x" /tmp/o/gemv-old.txt | awk '{printf "%s %s %s %s %s %s\n",$1,$2,$3,$4,$8,$10}'
