# issue 20: MXFP4's BF16 16-row tiled kernel computing both B fragments at every M: the harness tsk built from 148a59e
# (old) and from run 12's tree (new; that kernel's machine code is the kept build's), MXFP4 at 16 rows over seven shapes,
# old, new, new, old (its "bf16 tiled" timings, one and 16 rows)
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; cp /tmp/o/* $OUT/ 2>/dev/null; }
for t in old new; do xz -dc dist/probe-bf/tsk-$t.xz > /tmp/tsk-$t; chmod +x /tmp/tsk-$t; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
i=0; for t in old new new old; do i=$((i+1)); for sh in 8192x8192 28672x8192 8192x28672 6144x4096 4096x4096 28672x4096 4096x14336; do
  timeout 30 /tmp/tsk-$t MXFP4 $sh 16 >> /tmp/o/tsk-$i-$t.txt 2>&1; done; done
save tsk
grep -h "bf16 tiled" /tmp/o/tsk-*.txt | cut -c1-100; grep -c "all checks passed" /tmp/o/tsk-*.txt
