# call 178: issue 15: the final build 6f63f20 (FP8 keys by ldmatrix, all-architecture fatbin): DecodeKernelsIT and
# DenseDecoderIT; attention-bench fp8 at head size 64 and 128, batch 1 and 32 x 8k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT" > /tmp/o/it.txt 2>&1
echo "IT: $(grep -a -E 'tests (successful|failed)' /tmp/o/it.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"
for d in 64 128; do timeout 40 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp8 --head-dim $d --batch 1,32 --context 8192" > /tmp/o/attention-d$d.txt 2>&1; grep -a "^FP8" /tmp/o/attention-d$d.txt | cut -c1-60; done
tar -C /tmp -czf $OUT/call178.tgz o
