# call 11 (H200): SiLU x up in the gate/up epilogue (2 chunks a row in flight) with the next kernel allowed to launch
# at the start of each block (u2), after each block's loads (late) or at each block's exit (exit), against fccede6
# (head): FP16 batch 1 steps, twice
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call11.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
variant head dist/packed/head-cuda.jar
D="decode llama-3-8b --weights FP16 --batch 1 --context 1024,32768 --format markdown"
for r in 1 2; do
  for v in _u2 _late _exit; do
    echo "=== variant $v round $r"; JAVA_TOOL_OPTIONS=-Droofline.siluSuffix=$v timeout 60 bash -c "source dist/packed/common.sh; roofline $D"
  done
  echo "=== variant head round $r"; ROOFLINE_BUNDLE=/tmp/b/head timeout 60 bash -c "source dist/packed/common.sh; roofline $D"
done > /tmp/o/decode-ab.md 2>&1
save decode; grep -a "us/step\|=== variant" /tmp/o/decode-ab.md | sed 's/ (measured ceilings).*floor/ ... floor/'
