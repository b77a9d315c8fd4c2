# call 18 (H200): the fused q/k/v + RoPE kernel letting the split pass launch only as its blocks exit
# (wait_for_previous_kernel_only; exit-cuda.jar, sm_90a fatbin) against f4db535 (base) and base with the split pass
# in stream order, FP16 batch 1 x 1k / 8k / 32k; ITs on the exit build
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call18.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
variant exit dist/packed/exit-cuda.jar
ROOFLINE_BUNDLE=/tmp/b/exit timeout 150 bash -c 'source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.DecodeKernelsIT -c dev.roofline.cuda.decode.DenseDecoderIT' 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -E "tests (successful|failed|aborted)" /tmp/o/it.txt
run() { echo "=== $1 $2"; ROOFLINE_BUNDLE=/tmp/b/$1 JAVA_TOOL_OPTIONS="-Droofline.experiment.ordered=$2" timeout 120 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1 --context $3 --format markdown"; }
run gpu none 1024,8192,32768 > /tmp/o/base.md 2>&1; save base
run exit none 1024,8192,32768 > /tmp/o/exit.md 2>&1; save exit
run gpu decode_attention_split 1024,8192,32768 > /tmp/o/split.md 2>&1; save split
run gpu none 1024 > /tmp/o/base2.md 2>&1; run exit none 1024 > /tmp/o/exit2.md 2>&1; save round2
for f in base exit split base2 exit2; do echo "## $f"; grep -a "us/step" /tmp/o/$f.md | sed 's/ us\/step.*roofline \([0-9.]*\) us.*/ us, roofline \1/'; done
