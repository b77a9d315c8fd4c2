# call 48: issue 20 on an H100, build 29f4494 (one-row windows of 2, MXFP4's output scale from shared memory) against
# e1b46a0 (old-cuda.jar): tsk at one row; gemv-bench at 1-16 rows on the three large shapes and 1/16 rows on
# Llama-3-8B's; INT4 and MXFP4 decode steps at batch 1 and 8
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call48.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for f in INT4 MXFP4; do
  timeout 90 /tmp/tsk $f "" 1 > /tmp/o/tsk-$f-m1.txt 2>&1
  for sh in 4096x4096 6144x4096 28672x4096 4096x14336; do timeout 40 /tmp/tsk $f $sh 1 > /tmp/o/tsk-$f-$sh-m1.txt 2>&1; done
done
save tsk; grep -h -E "FAIL|FAILURE" /tmp/o/tsk-*.txt; grep -h -c "all checks passed" /tmp/o/tsk-*.txt | paste -sd' '
variant old dist/packed/old-cuda.jar
B1="--formats INT4,NVFP4,MXFP4 --rows 1,2,4,8,16 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672 --no-cublas --no-layer"
B2="--formats INT4,NVFP4,MXFP4 --rows 1,16 --shape 4096x4096 --shape 6144x4096 --shape 28672x4096 --shape 4096x14336 --no-cublas --no-layer"
for v in new old; do
  R=""; [ $v = old ] && R="ROOFLINE_BUNDLE=/tmp/b/old"
  timeout 150 bash -c "source dist/packed/common.sh; $R roofline gemv-bench $B1 --markdown /tmp/o/gemv-$v-a.md" > /tmp/o/gemv-$v-a.txt 2>&1
  timeout 100 bash -c "source dist/packed/common.sh; $R roofline gemv-bench $B2 --markdown /tmp/o/gemv-$v-b.md" > /tmp/o/gemv-$v-b.txt 2>&1
  save gemv-$v
done
cat /tmp/o/gemv-new-a.txt /tmp/o/gemv-new-b.txt > /tmp/o/gn; cat /tmp/o/gemv-old-a.txt /tmp/o/gemv-old-b.txt > /tmp/o/go
paste <(grep -E "^ +(INT4|NVFP4|MXFP4) " /tmp/o/gn | awk '{printf "%s %s %s\n",$1,$2,$3}') <(grep -E "^ +(INT4|NVFP4|MXFP4) " /tmp/o/go | awk '{printf "%s\n",$3}') | awk '{printf "%s %s new %s old %s %.3fx\n",$1,$2,$3,$4,$4/$3}'
timeout 80 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights INT4,MXFP4 --batch 1,8 --context 1024" > /tmp/o/decode-new.txt 2>&1
timeout 80 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline decode llama-3-8b --weights INT4,MXFP4 --batch 1,8 --context 1024" > /tmp/o/decode-old.txt 2>&1
save decode
grep -a "us/step" /tmp/o/decode-*.txt | cut -c1-110
