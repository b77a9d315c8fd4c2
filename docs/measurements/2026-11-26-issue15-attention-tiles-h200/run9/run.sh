# call 9 (H100): the attention's waves sized from the SM's shared memory (91fa8a3): attention and decoder ITs; the
# attention alone with PyTorch SDPA beside it; FP16 and NVFP4 decode steps at batch 1 and 8
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call9.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 200 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted" /tmp/o/it.txt; grep -a -B2 -A10 "✘" /tmp/o/it.txt | head -30
timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp16 --batch 1,8,32 --context 1024,8192,32768" > /tmp/o/attention.txt 2>&1
(cd roofline-cuda/src/bench/python && timeout 60 python3 attention_sdpa.py --batch 1,8,32 --context 1024,8192,32768) > /tmp/o/attention-sdpa.txt 2>&1
save attention; grep -a "^B=\|copy bandwidth" /tmp/o/attention.txt; tail -9 /tmp/o/attention-sdpa.txt
timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,NVFP4 --batch 1,8 --context 1024,32768 --format markdown" > /tmp/o/decode.md 2>&1
save decode; grep -a "us/step" /tmp/o/decode.md | sed 's/ (measured ceilings).*floor/ ... floor/'
