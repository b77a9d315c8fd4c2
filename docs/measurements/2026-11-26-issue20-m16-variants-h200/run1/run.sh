# call 19 (H200): issue 20 — the split-K cluster variants of the tiled 4-bit GEMV at 8/12/16/32 rows against the
# shipped tiled kernels (tsk = roofline-cuda/src/bench/gemv/tiled_splitk.cu), ncu of both at NVFP4 8192^2 16 rows;
# issue 15 — FP16 batch 1 at 512..8192 tokens with the attention's split pass in stream order against shipped
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call19.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 200 dist/packed/tsk > /tmp/o/tsk.txt 2>&1; echo rc=$?
save tsk; grep -E " (12|16) " /tmp/o/tsk.txt | grep -E "^(INT4|NVFP4|MXFP4) +(8192|28672)" | cut -c1-100; tail -1 /tmp/o/tsk.txt
run() { echo "=== $1 $2"; JAVA_TOOL_OPTIONS="-Droofline.experiment.ordered=$1" timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1 --context $2 --format markdown"; }
run none 512,1024,2048,4096,8192 > /tmp/o/base.md 2>&1; save base
run decode_attention_split 512,1024,2048,4096,8192 > /tmp/o/split.md 2>&1; save split
run none 1024,2048 > /tmp/o/base2.md 2>&1; run decode_attention_split 1024,2048 > /tmp/o/split2.md 2>&1; save round2
for f in base split base2 split2; do echo "## $f"; grep -a "us/step" /tmp/o/$f.md | sed 's/ us\/step.*roofline \([0-9.]*\) us.*/ us, roofline \1/'; done
for k in gemv_nvfp4_f16_m16_tiled sk_nvfp4_m16_ks4_u4 sk_nvfp4_m16_ks8_u2; do timeout 40 ncu --kernel-name $k --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats dist/packed/tsk NVFP4 8192x8192 16 > /tmp/o/ncu-$k.txt 2>&1; echo ncu $k rc=$?; done
save ncu
