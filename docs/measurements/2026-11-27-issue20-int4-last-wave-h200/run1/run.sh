# call 110: issue 20, one-row tiled variants with fewer warps splitting K (tsk, wk_*) at seven shapes; GemvKernelsIT
# tiled cases on the bundle of f50b9ce
source dist/packed/common.sh; xz -dc dist/probe/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call110.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for sh in 8192x8192 28672x8192 8192x28672 4096x4096 6144x4096 28672x4096 4096x14336; do
  timeout 100 /tmp/tsk "" $sh 1 > /tmp/o/tsk-$sh.txt 2>&1; save tsk-$sh
done
grep -h "all checks\|FAIL" /tmp/o/tsk-*.txt | sort | uniq -c
timeout 250 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[Tt]iled.*'" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -E "tests (successful|failed|aborted)" /tmp/o/it.txt; grep -a -B2 -A8 "✘" /tmp/o/it.txt | head -20
