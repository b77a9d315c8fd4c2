# call 21 (H200): issue 15 — the split pass in stream order after the fused product at most half a wave (the rule)
# against off (-Droofline.experiment.splitOff=true), Llama-3-8B FP16 batch 1 at 512/1024/1312 and 2048, two rounds;
# DecodeKernelsIT and DenseDecoderIT on the build
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call21.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
run() { echo "=== $1 $2"; JAVA_TOOL_OPTIONS="-Droofline.experiment.splitOff=$1" timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1 --context $2 --format markdown"; }
run false 512,1024,1312,2048 > /tmp/o/rule.md 2>&1; save rule
run true 512,1024,1312,2048 > /tmp/o/off.md 2>&1; save off
run false 512,1024,1312 > /tmp/o/rule2.md 2>&1; run true 512,1024,1312 > /tmp/o/off2.md 2>&1; save round2
for f in rule off rule2 off2; do echo "## $f"; grep -a "us/step" /tmp/o/$f.md | sed 's/ us\/step.*roofline \([0-9.]*\) us.*/ us, roofline \1/'; done
timeout 200 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.DecodeKernelsIT -c dev.roofline.cuda.decode.DenseDecoderIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -E "tests (successful|failed|aborted)" /tmp/o/it.txt; grep -a -B2 -A8 "✘" /tmp/o/it.txt | head -30
