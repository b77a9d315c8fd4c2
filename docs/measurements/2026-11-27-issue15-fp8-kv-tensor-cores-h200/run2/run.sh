# call 174: issue 15: the committed build 7ce8cbb (all-architecture fatbin): DecodeKernelsIT and DenseDecoderIT's KV
# tests; attention-bench fp8 batch 1, 8, 32 at 8k and 32k; Llama-3-8B FP8 weights with an FP8 cache at batch 1 x 1k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call174.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT" > /tmp/o/it-kernels.txt 2>&1
echo "IT kernels: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-kernels.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; save
timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp8 --batch 1,8,32 --context 8192,32768" > /tmp/o/attention-fp8.txt 2>&1
grep -a "^FP8" /tmp/o/attention-fp8.txt | cut -c1-60; save
timeout 90 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3 --kv fp8 --batch 1 --context 1024,8192" > /tmp/o/decode-fp8-fp8kv.txt 2>&1
grep -a "us/step" /tmp/o/decode-fp8-fp8kv.txt | cut -c1-200; echo "[$(( $(date +%s) - S )) s]"; save
