# call 153: issue 15, persistent read floor probe v2 (persist.cu): a one-round-trip barrier (red + poll) beside the
# two-round-trip one, the ring streaming all bytes with no barrier, 32k and 64k chunks; contexts 1k (twice) and 8k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call153.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/probe/persist.xz > /tmp/persist && chmod +x /tmp/persist
timeout 120 /tmp/persist 1024 20 > /tmp/o/persist-1k-1.txt 2>&1; cat /tmp/o/persist-1k-1.txt; save p1
timeout 120 /tmp/persist 8192 20 > /tmp/o/persist-8k-1.txt 2>&1; cat /tmp/o/persist-8k-1.txt; save p2
timeout 120 /tmp/persist 1024 20 > /tmp/o/persist-1k-2.txt 2>&1; cat /tmp/o/persist-1k-2.txt; save p3
