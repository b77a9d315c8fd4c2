# call 57: issue 20, the final build (two tiles a block from 5 rows where DRAM gives at least 15 bytes an SM and
# cycle) against e1b46a0 (old-cuda.jar): gemv-bench at 5, 6 and 8 rows; on an H100 (no pairs there) also decode steps
# at batch 8
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call57.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant old dist/packed/old-cuda.jar
B="--formats INT4,NVFP4,MXFP4 --rows 5,6,8 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672 --shape 28672x4096 --no-cublas --no-layer"
timeout 100 bash -c "source dist/packed/common.sh; roofline gemv-bench $B --markdown /tmp/o/gemv-new.md" > /tmp/o/gemv-new.txt 2>&1
timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline gemv-bench $B --markdown /tmp/o/gemv-old.md" > /tmp/o/gemv-old.txt 2>&1
save gemv
paste <(grep -E "^ +(INT4|NVFP4|MXFP4) " /tmp/o/gemv-new.txt | awk '{printf "%s %s %s\n",$1,$2,$3}') <(grep -E "^ +(INT4|NVFP4|MXFP4) " /tmp/o/gemv-old.txt | awk '{printf "%s\n",$3}') | awk '{printf "%s %s new %s old %s %.3fx\n",$1,$2,$3,$4,$4/$3}'
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H100; then
  timeout 100 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights INT4,NVFP4,MXFP4 --batch 8 --context 1024" > /tmp/o/decode-new.txt 2>&1
  timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline decode llama-3-8b --weights INT4,NVFP4,MXFP4 --batch 8 --context 1024" > /tmp/o/decode-old.txt 2>&1
  save decode; grep -a "us/step" /tmp/o/decode-*.txt | cut -c1-110
fi
