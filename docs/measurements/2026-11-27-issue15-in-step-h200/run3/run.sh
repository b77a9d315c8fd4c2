# call 163: issue 15: each operator's cost inside the step (the step less the step without it) beside its reads' in
# the read floor; DenseDecoderIT's stepWithout test
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call163.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 100 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.decode.DenseDecoderIT --include-methodname '.*[wW]ithout.*'" > /tmp/o/it-without.txt 2>&1
grep -a -E "tests (successful|failed)" /tmp/o/it-without.txt; save it
timeout 250 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3,FP16,NVFP4 --batch 1 --context 1024" > /tmp/o/decode-1k.txt 2>&1
save 1k
grep -a -A13 "^operator" /tmp/o/decode-1k.txt | cut -c1-18,60-200
timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3 --batch 1,8 --context 8192,1024" > /tmp/o/decode-fp8.txt 2>&1
save fp8
grep -a "us/step" /tmp/o/decode-fp8.txt | cut -c1-100
