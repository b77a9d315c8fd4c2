# call 51: issue 20, ncu at one row, 8192^2: INT4's and MXFP4's windows of 2 and NVFP4's and MXFP4's plain kernels
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call51.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
for f in INT4 MXFP4 NVFP4; do
  timeout 200 $NCU --kernel-name regex:'gemv_(int4|mxfp4|nvfp4)_f16_m1_tiled(_r2)?$' --launch-skip 0 --launch-count 2 \
    --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats \
    --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SpeedOfLight \
    /tmp/tsk $f 8192x8192 1 > /tmp/o/ncu-$f.txt 2>&1
  save ncu-$f
done
grep -h -E "Function Name|gemv_|Duration|Warp Cycles Per Issued|Issued Warp Per Scheduler|No Eligible|Executed Instructions  |Registers Per|Achieved Occupancy|DRAM Throughput|Memory Throughput|Stall" /tmp/o/ncu-*.txt | head -80
