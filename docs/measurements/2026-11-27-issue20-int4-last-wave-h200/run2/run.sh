# call 111: issue 20, MXFP4 at one row with the block scales on the mma's FP32 outputs (tsk MXFP4S, fs_*) beside the
# shipped layout's kernels at seven shapes; INT4 one-row variants (wk_*) at five shapes of 640 to 3584 blocks
source dist/packed/common.sh; xz -dc dist/probe/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call111.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for r in 1 2; do
for sh in 8192x8192 28672x8192 8192x28672 4096x4096 6144x4096 28672x4096 4096x14336; do
  timeout 100 /tmp/tsk MXFP4S $sh 1 > /tmp/o/mx$r-$sh.txt 2>&1; save mx$r-$sh
done
for sh in 14336x4096 10240x8192 57344x8192 28672x4096 28672x8192; do
  timeout 100 /tmp/tsk INT4 $sh 1 > /tmp/o/int4$r-$sh.txt 2>&1; save int4$r-$sh
done
done
grep -h "all checks\|FAIL\|NO" /tmp/o/*.txt | sort | uniq -c
grep -h "fs \|tiled m1\|shipped r2" /tmp/o/mx1-*.txt | awk '{print $1,$2,$4,$5,$6,$8}'
