# call 155: issue 15, persistent read floor probe v4 (persist.cu): products' chunks dealt on from where the last product
# stopped; the 322- and 226-phase schedules, contexts 1k and 8k, each twice
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call155.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/probe/persist.xz > /tmp/persist && chmod +x /tmp/persist
for i in 1 2; do for sch in 322 226; do for c in 1024 8192; do
  timeout 120 /tmp/persist $c 20 $sch > /tmp/o/persist-$sch-$c-$i.txt 2>&1; grep -E "^device|launch|ahead 32k|bar1 " /tmp/o/persist-$sch-$c-$i.txt
done; done; save $i; done
