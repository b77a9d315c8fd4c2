# call 13 (H200): FP16 one-row GEMVs with 4 (u4) or 3 (u3) chunks a row in flight instead of 2, on the products of at
# most 6144 rows (qkv, o, down) or on all of them, against the shipped kernel (head): FP16 batch 1 x 1k steps, twice
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call13.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
variant head dist/packed/head-cuda.jar
D="decode llama-3-8b --weights FP16 --batch 1 --context 1024 --format markdown"
for r in 1 2; do
  echo "=== variant head round $r"; ROOFLINE_BUNDLE=/tmp/b/head timeout 40 bash -c "source dist/packed/common.sh; roofline $D"
  echo "=== variant u4-small round $r"; JAVA_TOOL_OPTIONS="-Droofline.m1MaxN=6144 -Droofline.m1Suffix=_u4" timeout 40 bash -c "source dist/packed/common.sh; roofline $D"
  echo "=== variant u3-small round $r"; JAVA_TOOL_OPTIONS="-Droofline.m1MaxN=6144 -Droofline.m1Suffix=_u3" timeout 40 bash -c "source dist/packed/common.sh; roofline $D"
  echo "=== variant u4-all round $r"; JAVA_TOOL_OPTIONS="-Droofline.m1MaxN=1000000 -Droofline.m1Suffix=_u4" timeout 40 bash -c "source dist/packed/common.sh; roofline $D"
done > /tmp/o/decode-ab.md 2>&1
save decode; grep -a "us/step\|=== variant" /tmp/o/decode-ab.md | sed 's/ (measured ceilings).*floor/ ... floor/'
grep -a "=== variant\|qkv_proj\|o_proj\|down_proj\|gate_up\|lm_head" /tmp/o/decode-ab.md | head -30
