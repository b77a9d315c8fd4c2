# call 27 (H200): issue 20 — the tiled 4-bit kernels with BF16 activations: GemvKernelsIT's tiled cases (FP16 and BF16)
# on the build, and BF16 tiled against BF16 row-major timed in tiled_splitk.cu at 1 and 16 rows
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call27.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/packed/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
timeout 100 /tmp/tsk > /tmp/o/tsk-big.txt 2>&1; echo big rc=$?
for sh in 4096x4096 6144x4096 4096x14336; do timeout 40 /tmp/tsk "" $sh > /tmp/o/tsk-$sh.txt 2>&1; echo $sh rc=$?; done
save tsk; grep -h "bf16" /tmp/o/tsk-*.txt; grep -h "all checks\|FAIL" /tmp/o/tsk-*.txt | sort | uniq -c
timeout 150 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[Tt]iled.*'" 2>&1 | strip_ansi > /tmp/o/it-tiled.txt
save it; grep -E "tests (successful|failed|aborted)" /tmp/o/it-tiled.txt; grep -a -B2 -A8 "✘" /tmp/o/it-tiled.txt | head -40
