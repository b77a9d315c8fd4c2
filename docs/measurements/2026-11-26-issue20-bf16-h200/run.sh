# run 1 (H200, build of this record): the 4-bit GEMVs with BF16 activations on the tensor cores: GemvKernelsIT, and their
# timing beside FP16 activations on the same weights (FourBitActivations)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call7.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
timeout 300 bash -c 'source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT' 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted" /tmp/o/it.txt; grep -a "✘" /tmp/o/it.txt | head -20
B=/tmp/b/gpu; CP=$(ls $B/lib/*.jar | tr '\n' ':')dist/packed/cls
timeout 200 $B/jre/bin/java --enable-native-access=ALL-UNNAMED -cp "$CP" FourBitActivations > /tmp/o/four-bit-activations.md 2>&1
save bench; cat /tmp/o/four-bit-activations.md
