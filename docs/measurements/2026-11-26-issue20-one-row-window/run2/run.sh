# call 46: issue 20. (1) tsk at one row: windows of 2 (plain, capped at 5 blocks an SM) and INT4 2 steps a trip against
# the shipped kernels, at the five harness shapes and Llama-3-8B's; (2) gemv-bench A/B at Llama-3-8B's shapes, MXFP4's
# output scale from shared memory (new) against e1b46a0 (old-cuda.jar); (3) MXFP4 decode steps, builds alternated
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call46.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for f in INT4 MXFP4 NVFP4; do
  timeout 90 /tmp/tsk $f "" 1 > /tmp/o/tsk-$f-m1.txt 2>&1
  for sh in 4096x4096 6144x4096 28672x4096 4096x14336; do timeout 40 /tmp/tsk $f $sh 1 > /tmp/o/tsk-$f-$sh-m1.txt 2>&1; done
done
save tsk; grep -h -E "FAIL|FAILURE" /tmp/o/tsk-*.txt; grep -h -c "all checks passed" /tmp/o/tsk-*.txt | paste -sd' '
grep -h -E "^(INT4|MXFP4|NVFP4) " /tmp/o/tsk-*.txt | grep -v bf16 | awk '{printf "%s %s %s %s\n",$1,$2,$4" "$5" "$6" "$7,$9" "$12}' | sed 's/ 0.0 / /' | column -t | head -150
variant old dist/packed/old-cuda.jar
B="--formats INT4,NVFP4,MXFP4 --rows 1,8,16 --shape 4096x4096 --shape 6144x4096 --shape 28672x4096 --shape 4096x14336 --no-cublas --no-layer"
timeout 100 bash -c "source dist/packed/common.sh; roofline gemv-bench $B --markdown /tmp/o/gemv-new.md" > /tmp/o/gemv-new.txt 2>&1
timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline gemv-bench $B --markdown /tmp/o/gemv-old.md" > /tmp/o/gemv-old.txt 2>&1
save gemv
paste <(grep -E "^ +(INT4|NVFP4|MXFP4) " /tmp/o/gemv-new.txt | awk '{printf "%s %s %s\n",$1,$2,$3}') <(grep -E "^ +(INT4|NVFP4|MXFP4) " /tmp/o/gemv-old.txt | awk '{printf "%s\n",$3}') | awk '{printf "%s %s new %s old %s %.3fx\n",$1,$2,$3,$4,$4/$3}'
for r in 1 2; do
  timeout 80 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights MXFP4 --batch 1,8 --context 1024" > /tmp/o/decode-new-$r.txt 2>&1
  timeout 80 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline decode llama-3-8b --weights MXFP4 --batch 1,8 --context 1024" > /tmp/o/decode-old-$r.txt 2>&1
done
save decode; grep -a "us/step" /tmp/o/decode-*.txt | cut -c1-120
