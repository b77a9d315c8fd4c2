# call 112: issue 20, MXFP4 in the block order (each mma in one 32-k block, scale on its FP32 outputs with FP16
# activations): tsk of the change (new) against tsk of f50b9ce with call 110-111's variants (old), MXFP4 at 1, 8, 12,
# 16 rows and BF16 at 1 and 16 rows, seven shapes, old new new old
source dist/packed/common.sh
for v in old new; do xz -dc dist/probe/tsk-$v.xz > /tmp/tsk-$v && chmod +x /tmp/tsk-$v; done
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call112.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
i=0; for v in old new new old; do i=$((i+1))
for sh in 8192x8192 28672x8192 8192x28672 4096x4096 6144x4096 28672x4096 4096x14336; do
  timeout 100 /tmp/tsk-$v MXFP4 $sh > /tmp/o/$i-$v-$sh.txt 2>&1
done; save $i-$v
done
grep -h "all checks\|FAIL\|NO" /tmp/o/*.txt | sort | uniq -c
