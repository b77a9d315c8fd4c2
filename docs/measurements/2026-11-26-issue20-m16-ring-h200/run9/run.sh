# issue 20: ncu source-level (SASS) stall sampling of the 16-row ring (16 warps) and the shipped tiled m16, INT4 28672x8192
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; cp /tmp/o/*.txt /tmp/o/*.csv $OUT/ 2>/dev/null; }
xz -dc dist/probe-ring/tsk.xz > /tmp/tsk; chmod +x /tmp/tsk
M=smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fmaheavy.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active
for k in ring_int4_m16_ks2_s3_t1_b2_w16 gemv_int4_f16_m16_tiled ch2_int4_m16; do
  timeout 90 ncu --kernel-name $k --launch-count 1 --metrics $M --section SourceCounters -o /tmp/o/rep-$k /tmp/tsk INT4 28672x8192 16 > /tmp/o/ncu-log-$k.txt 2>&1; echo ncu $k rc=$?
  timeout 60 ncu --import /tmp/o/rep-$k.ncu-rep --page source --print-source sass --csv > /tmp/o/sass-$k.csv 2>&1; echo src rc=$?
  timeout 60 ncu --import /tmp/o/rep-$k.ncu-rep --page details > /tmp/o/details-$k.txt 2>&1
done
save ncu
ls -la /tmp/o; head -3 /tmp/o/sass-gemv_int4_f16_m16_tiled.csv | cut -c1-600
for k in ring_int4_m16_ks2_s3_t1_b2_w16 gemv_int4_f16_m16_tiled ch2_int4_m16; do echo "== $k"; grep -E "^\s+(smsp|sm__|gpu__)" /tmp/o/details-$k.txt | sed -E 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{print $1, $NF}'; done
