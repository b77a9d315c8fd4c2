# call 152: issue 15, the read floor of a persistent FP8 decode step (probe persist.cu): 322 phases of one cooperative
# kernel with grid barriers, products' weights through a shared-memory ring gated by or ahead of the barriers, beside
# the 322-launch programmatic read graph; contexts 1k and 8k, twice; the decoder's FP8 1 x 1k step and read floor
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call152.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/probe/persist.xz > /tmp/persist && chmod +x /tmp/persist
timeout 120 /tmp/persist 1024 20 > /tmp/o/persist-1k-1.txt 2>&1; cat /tmp/o/persist-1k-1.txt; save p1
timeout 120 /tmp/persist 8192 20 > /tmp/o/persist-8k-1.txt 2>&1; cat /tmp/o/persist-8k-1.txt; save p2
timeout 90 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3 --batch 1 --context 1024" > /tmp/o/decode-fp8-1k.txt 2>&1
grep -a -i "us/step\|floor\|roofline" /tmp/o/decode-fp8-1k.txt | head -12; save d1
timeout 120 /tmp/persist 1024 20 > /tmp/o/persist-1k-2.txt 2>&1; cat /tmp/o/persist-1k-2.txt; save p3
