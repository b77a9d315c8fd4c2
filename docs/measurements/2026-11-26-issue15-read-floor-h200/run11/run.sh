# call 80: the final build: StreamReadIT, and decode steps with read floors where cuBLASLt products (FP16 above one
# row) and tiled 4-bit products count as launched in stream order, four formats at batch 1 and 8 x 1k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call80.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 60 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.StreamReadIT" > /tmp/o/it-raw.txt 2>&1
strip_ansi < /tmp/o/it-raw.txt > /tmp/o/it.txt; rm /tmp/o/it-raw.txt
save it; grep -a -E "tests (successful|failed|aborted)|✘" /tmp/o/it.txt
timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8 --context 1024 --format markdown" > /tmp/o/decode.md 2>&1
save decode; grep -a 'us/step' /tmp/o/decode.md | sed -E 's#roofline [0-9.]+ us \(measured ceilings\), [0-9.]+ us \(datasheet\); ##; s#; [0-9.]+ J/token.*##' | cut -c1-330
grep -a -E "^### |^\| (add|qkv|attention|o_proj|gate|down|step)" /tmp/o/decode.md | grep -a -A7 "batch 1," | cut -d'|' -f2,6,8,9 | head -40
