# call 75: issue 15 on 6db163a (FP8 at one row, 4096-6144 rows, on the 16-warp tensor-core kernel): GemvKernelsIT,
# DenseDecoderIT, StreamReadIT; the decode sweep calibrated at batch 1 x 1k and held out at batch 8/16/32 x 1k/8k in
# four formats, with each configuration's read floor
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call75.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 300 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8,16,32 --context 1024,8192 --calibrate /tmp/o/calibration.json --format markdown" > /tmp/o/decode-sweep.md 2>&1
save sweep; grep -a "held out\|calibration" /tmp/o/decode-sweep.md | grep -a "^|" | cut -d'|' -f2,3,4,9,10 | head -40
grep -a 'us/step' /tmp/o/decode-sweep.md | grep -a "batch 1 context 1024" | sed -E 's#roofline [0-9.]+ us \(measured ceilings\), [0-9.]+ us \(datasheet\); ##' | cut -c1-300
timeout 250 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.kernels.StreamReadIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a -E "tests (successful|failed|aborted)" /tmp/o/it.txt; grep -a -B2 -A8 "✘" /tmp/o/it.txt | head -30
