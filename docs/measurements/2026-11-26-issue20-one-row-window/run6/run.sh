# call 50: issue 20, the final rule (MXFP4's one-row window up to 3 blocks an SM) against e1b46a0 (old-cuda.jar):
# gemv-bench at one row, INT4 / NVFP4 / MXFP4, Llama-3-8B's q/k/v and o shapes and 8192^2; INT4 and MXFP4 decode steps
# at batch 1 x 1k, builds alternated, two rounds
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call50.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant old dist/packed/old-cuda.jar
B="--formats INT4,NVFP4,MXFP4 --rows 1 --shape 6144x4096 --shape 4096x4096 --shape 8192x8192 --no-cublas --no-layer"
timeout 100 bash -c "source dist/packed/common.sh; roofline gemv-bench $B --markdown /tmp/o/gemv-new.md" > /tmp/o/gemv-new.txt 2>&1
timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline gemv-bench $B --markdown /tmp/o/gemv-old.md" > /tmp/o/gemv-old.txt 2>&1
save gemv
paste <(grep -E "^ +(INT4|NVFP4|MXFP4) " /tmp/o/gemv-new.txt | awk '{printf "%s %s %s\n",$1,$2,$3}') <(grep -E "^ +(INT4|NVFP4|MXFP4) " /tmp/o/gemv-old.txt | awk '{printf "%s\n",$3}') | awk '{printf "%s %s new %s old %s %.3fx\n",$1,$2,$3,$4,$4/$3}'
for r in 1 2; do
  timeout 80 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights INT4,MXFP4 --batch 1 --context 1024" > /tmp/o/decode-new-$r.txt 2>&1
  timeout 80 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline decode llama-3-8b --weights INT4,MXFP4 --batch 1 --context 1024" > /tmp/o/decode-old-$r.txt 2>&1
  save decode-$r
done
grep -a "us/step" /tmp/o/decode-*.txt | cut -c1-110
