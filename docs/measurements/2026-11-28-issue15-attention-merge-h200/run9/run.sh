# call 9: the final build (73f31db): DecodeKernelsIT (with one row of 8192 tokens at head size 64, the 8-column merge),
# DenseDecoderIT and MoeDecoderIT
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.MoeDecoderIT" > /tmp/o/it-final.txt 2>&1
echo "IT final: $(grep -a -E 'tests (successful|failed|found)' /tmp/o/it-final.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘" /tmp/o/it-final.txt | head; grep -a "8192, 64\|8192 tokens" /tmp/o/it-final.txt | head -3
tar -C /tmp -czf $OUT/call9.tgz o
