source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
timeout 200 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --select-class dev.roofline.cuda.kernels.MoeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT" 2>&1 | strip_ansi > /tmp/o/it.txt
echo "it $(( $(date +%s) - S )) s"; grep -a "tests successful\|tests failed\|tests aborted" /tmp/o/it.txt; grep -a -B2 -A10 "✘" /tmp/o/it.txt | head -50
C=docs/measurements/2026-11-25-issue20-batched-gemv-h100/run6/calibration.json
timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3,NVFP4,INT4,BF16 --batch 32 --context 1024,8192 --calibration $C --format markdown" > /tmp/o/decode-b32.md 2>&1
echo "b32 $(( $(date +%s) - S )) s"; grep -a "held out\|rror\|xception" /tmp/o/decode-b32.md | tail -12
timeout 150 bash -c "source dist/packed/common.sh; roofline gemv-bench --rows 1,16,32 --no-layer --no-cublas" > /tmp/o/gemv-rows.txt 2>&1
echo "gemv $(( $(date +%s) - S )) s"; tail -40 /tmp/o/gemv-rows.txt
tar -C /tmp -czf $OUT/run5.tgz o
