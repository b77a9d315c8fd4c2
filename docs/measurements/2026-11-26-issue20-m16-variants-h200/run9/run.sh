# call 28 (H200): issue 20 — the final build's tiled ITs (FP16 and BF16 activations, the epilogue refusal) and the MXFP4
# BF16 top-of-scale-range cases, row-major and tiled
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call28.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 150 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*([Tt]iled|TopOfTheScaleRange).*'" 2>&1 | strip_ansi > /tmp/o/it-tiled.txt
save it; grep -E "tests (successful|failed|aborted)" /tmp/o/it-tiled.txt; grep -a -B2 -A8 "✘" /tmp/o/it-tiled.txt | head -40
