# call 121: issue 20, MXFP4 in the block order with the template's x loads as volatile asm (new: f50b9ce +
# block-order.diff + ldg_x_v4) against tsk of calls 110-111 (old: the shipped layout and fs_d2), one row, seven shapes,
# old new new old; BF16 lines at one row from both
for v in old new; do xz -dc dist/probe/tsk-$v.xz > /tmp/tsk-$v && chmod +x /tmp/tsk-$v; done
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call121.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
i=0; for v in old new new old; do i=$((i+1))
for sh in 8192x8192 28672x8192 8192x28672 4096x4096 6144x4096 28672x4096 4096x14336; do
  timeout 60 /tmp/tsk-$v MXFP4S $sh 1 > /tmp/o/$i-$v-$sh.txt 2>&1
done; save $i-$v
done
grep -h "all checks\|FAIL\|NO" /tmp/o/*.txt | sort | uniq -c
