# call 10 (H200): the final build (tiled 4-bit GEMVs, launched in stream order): kernel and decoder ITs; the decode
# sweep of issue 15 (four formats, batch 1/8/16/32 x 1k/8k) calibrated at batch 1 x 1k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call10.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 220 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.CheckpointWeightsIT --select-class dev.roofline.cuda.decode.MoeDecoderIT --select-class dev.roofline.cuda.kernels.MoeKernelsIT" > /tmp/o/it.txt 2>&1
save it; strip_ansi < /tmp/o/it.txt | grep -a "tests successful\|tests failed\|tests aborted" || tail -20 /tmp/o/it.txt; strip_ansi < /tmp/o/it.txt | grep -a -B2 -A10 "✘" | head -40
timeout 340 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8,16,32 --context 1024,8192 --calibrate /tmp/o/calibration.json --format markdown" > /tmp/o/decode-sweep.md 2>&1
save sweep; grep -a "held out\|calibration " /tmp/o/decode-sweep.md | grep -a "^|"; grep -a "^calibration:\|^efficien" /tmp/o/decode-sweep.md | cut -c1-400
