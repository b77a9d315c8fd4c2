# call 68: issue 20, Nsight Compute on the 16-row and 8-row tiled kernels of build 8ae6863 (INT4 and NVFP4 lanes read x
# one line a load; MXFP4 as before) at 8192^2 (tsk = roofline-cuda/src/bench/gemv/tiled_splitk.cu)
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call68.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
export PATH=$PATH:/usr/local/cuda/bin
for f in nvfp4 int4 mxfp4; do for m in 16 8; do F=$(echo $f | tr a-z A-Z)
  timeout 60 ncu --kernel-name gemv_${f}_f16_m${m}_tiled --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats /tmp/tsk $F 8192x8192 $m > /tmp/o/ncu-gemv_${f}_f16_m${m}_tiled.txt 2>&1; echo ncu $f m$m rc=$?
done; done
save ncu; grep -h -E "Duration|L1/TEX Cache Throughput|L2 Cache Throughput|DRAM Throughput|L1/TEX Hit|Warp Cycles Per Issued" /tmp/o/ncu-*.txt
