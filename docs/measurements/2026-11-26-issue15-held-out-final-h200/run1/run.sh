# call 29 (H200): issue 15 on 3b6d42e: the decode sweep calibrated at batch 1 x 1k and held out at batch 8/16/32 x
# 1k/8k, batch 1/8 x 32k priced with the same calibration; attention, dense and MoE decoder ITs
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call29.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 240 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8,16,32 --context 1024,8192 --calibrate /tmp/o/calibration.json --format markdown" > /tmp/o/decode-sweep.md 2>&1
save sweep; grep -a "held out\|calibration" /tmp/o/decode-sweep.md | grep -a "^|" | cut -d'|' -f2,3,4,9,10 | head -40; grep -a "us/step" /tmp/o/decode-sweep.md | grep "batch 1 context 1024"
timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8 --context 32768 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/decode-32k.md 2>&1
save 32k; grep -a "held out" /tmp/o/decode-32k.md | cut -d'|' -f2,3,4,9,10 | head -10
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.MoeDecoderIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted" /tmp/o/it.txt; grep -a -B2 -A8 "✘" /tmp/o/it.txt | head -30
timeout 60 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1 --context 1024 --format markdown" > /tmp/o/step-fp16.md 2>&1
save step; grep -a "us/step" /tmp/o/step-fp16.md
