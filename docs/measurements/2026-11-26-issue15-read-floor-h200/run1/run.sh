# call 70: issue 15, the read floor: StreamReadIT; attention beside one kernel reading the same KV bytes at 8k-32k;
# decode steps with their read floors (four formats, batch 1/8 x 1k/8k); PyTorch's decode step at batch 1 x 1k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call70.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 60 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.StreamReadIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a -E "tests (successful|failed|aborted)" /tmp/o/it.txt
timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp16 --batch 1,8,32 --context 8192,16384,32768" > /tmp/o/attention.txt 2>&1
save attention; grep -a "context=" /tmp/o/attention.txt | tail -9
timeout 200 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8 --context 1024,8192 --format markdown" > /tmp/o/decode.md 2>&1
save decode; grep -a 'us/step' /tmp/o/decode.md | sed -E 's#roofline [0-9.]+ us \(measured ceilings\), [0-9.]+ us \(datasheet\); ##' | cut -c1-360 | head -16; grep -a -c "read floor (graph)" /tmp/o/decode.md
(cd roofline-cuda/src/bench/python && timeout 100 python3 decode_step_torch.py --batch 1 --context 1024) > /tmp/o/torch.txt 2>&1
save torch; tail -5 /tmp/o/torch.txt

timeout 120 bash -c "source dist/packed/common.sh; roofline gemv-bench --formats INT4,NVFP4,MXFP4,FP8_E4M3,FP16 --rows 1,16 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672 --no-cublas --no-layer --markdown /tmp/o/gemv.md" > /tmp/o/gemv.txt 2>&1
save gemv; grep -a -E "^\| [0-9]+x" /tmp/o/gemv.md | cut -d'|' -f2-5,10-16 | head -30
