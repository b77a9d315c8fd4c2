set -x
source dist/packed/common.sh
S=$(date +%s)
R=dist/packed/roofline.sh
v() { # name, java options
  echo "=== variant $1 ($2)" >> "$OUT/decode-ab.md"
  JOPTS="$2" timeout 120 bash $R decode llama-3-8b --weights FP16,FP8_E4M3 --batch 1 --context 1024 --format markdown >> "$OUT/decode-ab.md" 2>&1
  echo "$1 $(( $(date +%s) - S )) s"
}
for round in 1 2; do
  v base ""
  v att "-Droofline.prefetch.attention=64"
  v norm "-Droofline.prefetch.norm=8"
  v silu "-Droofline.prefetch.silu=4"
  v all "-Droofline.prefetch.attention=64 -Droofline.prefetch.norm=8 -Droofline.prefetch.silu=4"
done
grep -a "=== variant\|us/step" "$OUT/decode-ab.md" | cut -c1-175
grep -a "=== variant\|o_proj\|qkv_proj\|gate_up\|down_proj\|rope\|rmsnorm\|silu" "$OUT/decode-ab.md" | head -80
