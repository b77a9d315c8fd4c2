# MoeDecoderIT with FP8 experts at batch 1 (RoPE in the q/k/v product, on the CUDA cores: a mixture of experts keeps
# the split pass's early launch)
rm -rf /tmp/b /tmp/o
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 240 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.decode.MoeDecoderIT" > /tmp/o/it-moe.txt 2>&1
grep -a -E "tests (successful|failed|aborted)" /tmp/o/it-moe.txt; grep -a "✘" /tmp/o/it-moe.txt | cut -c1-200 | head -8
echo "done $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call15.tgz o
