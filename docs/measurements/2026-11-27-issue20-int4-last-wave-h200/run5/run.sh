# call 114: issue 20, MXFP4 in the block order at one row: the new kernels held to 4 blocks an SM (44 KiB of unused
# dynamic shared memory a block) against the same uncapped, and tsk of f50b9ce's fs variants (old, MXFP4S), seven shapes
source dist/packed/common.sh
for v in old new; do xz -dc dist/probe/tsk-$v.xz > /tmp/tsk-$v && chmod +x /tmp/tsk-$v; done
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call114.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
i=0; for v in new old new old; do i=$((i+1))
for sh in 8192x8192 28672x8192 8192x28672 4096x4096 6144x4096 28672x4096 4096x14336; do
  timeout 100 /tmp/tsk-$v MXFP4S $sh 1 > /tmp/o/$i-$v-$sh.txt 2>&1
done; save $i-$v
done
grep -h "all checks\|FAIL\|NO" /tmp/o/*.txt | sort | uniq -c
