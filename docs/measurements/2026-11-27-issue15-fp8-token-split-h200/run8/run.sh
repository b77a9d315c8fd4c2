# call 199: issue 15: the build after the review (comments, a static_assert; kernels' PTX equal to e625d50's) with the
# NaN-tail test at lengths 1, 17, 300, 990: DecodeKernelsIT's attention tests
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it.txt 2>&1
echo "IT: $(grep -a -E 'tests (successful|failed)' /tmp/o/it.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘|NeverReads" /tmp/o/it.txt | head
tar -C /tmp -czf $OUT/call199.tgz o
