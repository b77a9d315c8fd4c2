# run 15 (H200, build 1c481fc): issue 19's merged build (sm_100a path) ITs on Hopper; o_proj's weights asked of L2 on a
# second stream of the step after q/k/v (experiment, -Droofline.exp.prefetch), A/B in one call; roofline validate
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call5.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
timeout 120 bash -c 'source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.NativeFp4GemvIT -c dev.roofline.cuda.blas.MatmulIT' 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted" /tmp/o/it.txt
run() { echo "=== $1 $2 round $r"; JAVA_TOOL_OPTIONS="$3" timeout 45 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights $1 --batch 1 --context 1024 --format markdown"; }
for r in 1 2; do
  for f in FP16 FP8_E4M3; do
    run $f base "" >> /tmp/o/decode-ab.md 2>&1; save "$f base $r"
    run $f o "-Droofline.exp.prefetch=o" >> /tmp/o/decode-ab.md 2>&1; save "$f o $r"
  done
  run FP16 16M "-Droofline.exp.prefetch=16777216" >> /tmp/o/decode-ab.md 2>&1; save "FP16 16M $r"
done
grep -a "us/step\|^=== " /tmp/o/decode-ab.md | sed 's/ (measured ceilings).*floor/ ... floor/'
mkdir -p /tmp/o/validate; timeout 150 bash -c "source dist/packed/common.sh; roofline validate --out /tmp/o/validate" > /tmp/o/validate.txt 2>&1; save validate; tail -15 /tmp/o/validate.txt
