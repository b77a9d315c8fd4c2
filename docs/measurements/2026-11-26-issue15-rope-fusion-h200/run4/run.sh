# call 17 (H200): the attention's split pass in stream order (-Droofline.experiment.ordered=decode_attention_split)
# against all programmatic over FP16 / FP8 / NVFP4 x batch 1, 8 x 1k, 32k, same call, then batch 16/32 x 1k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call17.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
run() { echo "=== $1"; JAVA_TOOL_OPTIONS="-Droofline.experiment.ordered=$1" timeout 230 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4 --batch $2 --context $3 --format markdown"; }
run none 1,8 1024,32768 > /tmp/o/sweep-none.md 2>&1; save none
run decode_attention_split 1,8 1024,32768 > /tmp/o/sweep-split.md 2>&1; save split
run none 16,32 1024 > /tmp/o/sweep2-none.md 2>&1; save none2
run decode_attention_split 16,32 1024 > /tmp/o/sweep2-split.md 2>&1; save split2
for f in sweep-none sweep-split sweep2-none sweep2-split; do echo "## $f"; grep -a "us/step" /tmp/o/$f.md | sed 's/ us\/step.*roofline \([0-9.]*\) us.*/ us, roofline \1/'; done
