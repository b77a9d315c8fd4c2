# call 166: issue 15 probe: FP8 one-row CUDA-core GEMV block shapes (probe_fp8.cu) at gate/up, 14336x4096,
# down's 4096x14336 and lm_head's 128256x4096; ncu of the shipped kernel and one variant at gate/up
S=$(date +%s); mkdir -p $OUT/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > $OUT/o/device.txt; cat $OUT/o/device.txt
timeout 200 dist/probe/fp8v > $OUT/o/probe.txt 2>&1; echo "probe rc $? $(( $(date +%s) - S )) s"
cat $OUT/o/probe.txt
timeout 150 ncu --kernel-name regex:'gemv_fp8_f16_m1_ep|fp8vILi4ELi4ELi1' --launch-skip 0 --launch-count 2 --section SpeedOfLight --section WarpStateStats --section Occupancy --section MemoryWorkloadAnalysis --section LaunchStats dist/probe/fp8v 0 > $OUT/o/ncu.txt 2>&1
echo "ncu rc $? $(( $(date +%s) - S )) s"; grep -E "gemv_fp8|fp8v|Duration|Memory Throughput|DRAM Throughput|Stall|Achieved Occupancy|Warp Cycles Per Issued" $OUT/o/ncu.txt | head -60
