# call 20 (H200): issue 20 — rolling-pipeline variants of the tiled 4-bit GEMV (tsk = tiled_splitk.cu: pipe t<T> d<D>)
# at 1/8/12/16 rows against the shipped tiled kernels; issue 15 — the split pass in stream order after the fused
# product at most half a wave (shipped rule) against off (-Droofline.experiment.splitOff), Llama-3-8B FP16 batch 1
# at 512/1024/1312/2048 and Mixtral-8x7B FP16 batch 1 x 1k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call20.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 150 dist/packed/tsk > /tmp/o/tsk.txt 2>&1; echo rc=$?
save tsk; grep -E "^(INT4|NVFP4|MXFP4) +(8192x8192|28672x8192|8192x28672) +(1|16) " /tmp/o/tsk.txt | cut -c1-90; tail -1 /tmp/o/tsk.txt
run() { echo "=== $1 $2 $3"; JAVA_TOOL_OPTIONS="-Droofline.experiment.splitOff=$1" timeout 150 bash -c "source dist/packed/common.sh; roofline decode $2 --weights FP16 --batch 1 --context $3 --format markdown"; }
run false llama-3-8b 512,1024,1312,2048 > /tmp/o/rule.md 2>&1; save rule
run true llama-3-8b 512,1024,1312,2048 > /tmp/o/off.md 2>&1; save off
run false llama-3-8b 1024,1312 > /tmp/o/rule2.md 2>&1; run true llama-3-8b 1024,1312 > /tmp/o/off2.md 2>&1; save round2
run false mixtral-8x7b 1024 > /tmp/o/mix-rule.md 2>&1; save mixrule
run true mixtral-8x7b 1024 > /tmp/o/mix-off.md 2>&1; save mixoff
for f in rule off rule2 off2 mix-rule mix-off; do echo "## $f"; grep -a "us/step" /tmp/o/$f.md | sed 's/ us\/step.*roofline \([0-9.]*\) us.*/ us, roofline \1/'; done
