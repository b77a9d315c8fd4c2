# call 12 (H100): the tiled 4-bit GEMV on an H100: GemvKernelsIT (it did not finish within its 150 s; no result), then gemv-bench of the 4-bit formats at M = 1..32
# with this build and with the build before the tiled layout (old-cuda.jar, 266b081) in the same call
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call12.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT" > /tmp/o/it.txt 2>&1
save it; strip_ansi < /tmp/o/it.txt | grep -a "tests successful\|tests failed\|tests aborted" || tail -20 /tmp/o/it.txt
timeout 150 bash -c "source dist/packed/common.sh; roofline gemv-bench --formats INT4,NVFP4,MXFP4 --rows 1,2,4,8,16,32 --no-layer --markdown /tmp/o/gemv-tiled.md" > /tmp/o/gemv-tiled.txt 2>&1
save tiled
variant old dist/packed/old-cuda.jar
timeout 150 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline gemv-bench --formats INT4,NVFP4,MXFP4 --rows 1,2,4,8,16,32 --no-layer --markdown /tmp/o/gemv-old.md" > /tmp/o/gemv-old.txt 2>&1
save old
paste <(grep -E "^(8192|28672)x" /tmp/o/gemv-tiled.txt | awk '{printf "%s %s %s %s %s\n",$1,$2,$3,$4,$10}') <(grep -E "^(8192|28672)x" /tmp/o/gemv-old.txt | awk '{printf "%s %s\n",$4,$10}')
