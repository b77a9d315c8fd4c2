# call 25 (H200): issue 20 — the tiled 4-bit variants at 8 and 16 rows at the decode step's smaller products
# (4096x4096, 6144x4096, 4096x14336), where the shipped 16-row kernel's grid is 128-192 blocks

S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call25.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for sh in 4096x4096 6144x4096 4096x14336; do timeout 40 dist/packed/tsk "" $sh > /tmp/o/tsk-$sh.txt 2>&1; echo $sh rc=$?; done
save tsk; cat /tmp/o/tsk-*.txt | grep -E " (8|16) " | cut -c1-84
