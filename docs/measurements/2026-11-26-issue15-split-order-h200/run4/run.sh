# call 24 (H200): the final build b2460de: DenseDecoderIT (the tiny decoders, INT4 among them on the rolling tiled kernel,
# the split pass's launch rule) and GemvKernelsIT's tiled cases; Llama-3-8B FP16 and INT4 batch 1 x 1k; sweep.cu's 4-bit
# references on the tensor-core kernel at NVFP4 8192x8192
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call24.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 40 dist/packed/sweep NVFP4 8192x8192 > /tmp/o/sweep.txt 2>&1; echo sweep rc=$?; tail -3 /tmp/o/sweep.txt | cut -c1-120
timeout 100 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,INT4 --batch 1 --context 1024 --format markdown" > /tmp/o/step.md 2>&1
save step; grep -a "us/step" /tmp/o/step.md | cut -c1-220
timeout 120 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.decode.DenseDecoderIT" 2>&1 | strip_ansi > /tmp/o/it.txt
timeout 60 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[Tt]iled.*'" 2>&1 | strip_ansi > /tmp/o/it-tiled.txt
save it; grep -E "tests (successful|failed|aborted)" /tmp/o/it.txt /tmp/o/it-tiled.txt; grep -a -B2 -A8 "✘" /tmp/o/it.txt /tmp/o/it-tiled.txt | head -30
