# call 3 (H200): the tiled attention (chunks up to 512 tokens) at its final build: the GEMV, attention, decoder and
# checkpoint ITs; the attention alone over FP16, BF16 and FP8 caches; PyTorch's SDPA on the same shapes
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call3.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 100 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp16,bf16,fp8 --batch 1,8,32 --context 1024,8192,32768" > /tmp/o/attention.txt 2>&1
save attention
(cd roofline-cuda/src/bench/python && timeout 100 python3 attention_sdpa.py --batch 1,8,32 --context 1024,8192,32768) > /tmp/o/attention-sdpa.txt 2>&1
save sdpa; cat /tmp/o/attention-sdpa.txt | tail -12
timeout 380 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.HostWeightsIT --select-class dev.roofline.cuda.decode.CheckpointWeightsIT --select-class dev.roofline.cuda.decode.MoeDecoderIT --select-class dev.roofline.cuda.kernels.GemvKernelsIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted\|tests skipped" /tmp/o/it.txt; grep -a -B2 -A8 "✘" /tmp/o/it.txt | head -40
grep -a "^B=\|^BF16 B=\|^FP8 E4M3 B=\|copy bandwidth" /tmp/o/attention.txt
