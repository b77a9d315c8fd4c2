# call 47: issue 20, the build with one-row windows of 2 (INT4 up to one wave, MXFP4 up to 2 blocks an SM) and MXFP4's
# output scale from shared memory, stored after the steps: (1) tsk at one row, INT4 and MXFP4, nine shapes; (2)
# GemvKernelsIT tiled cases and DenseDecoderIT; (3) gemv-bench A/B against e1b46a0 (old-cuda.jar); (4) INT4 and MXFP4
# decode steps at batch 1 and 8, builds alternated, two rounds
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call47.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
if [ "${SKIP_TSK:-0}" = 0 ]; then
for f in INT4 MXFP4; do
  timeout 90 /tmp/tsk $f "" 1 > /tmp/o/tsk-$f-m1.txt 2>&1
  for sh in 4096x4096 6144x4096 28672x4096 4096x14336; do timeout 40 /tmp/tsk $f $sh 1 > /tmp/o/tsk-$f-$sh-m1.txt 2>&1; done
done
save tsk; grep -h -E "FAIL|FAILURE" /tmp/o/tsk-*.txt; grep -h -c "all checks passed" /tmp/o/tsk-*.txt | paste -sd' '
fi
timeout 150 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[Tt]iled.*'" 2>&1 | strip_ansi > /tmp/o/it-tiled.txt
save it-tiled; grep -E "tests (successful|failed|aborted)" /tmp/o/it-tiled.txt; grep -a -B2 -A8 "✘" /tmp/o/it-tiled.txt | head -20
timeout 120 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.decode.DenseDecoderIT" 2>&1 | strip_ansi > /tmp/o/it-decoder.txt
save it-decoder; grep -E "tests (successful|failed|aborted)" /tmp/o/it-decoder.txt; grep -a -B2 -A8 "✘" /tmp/o/it-decoder.txt | head -20
variant old dist/packed/old-cuda.jar
B="--formats INT4,NVFP4,MXFP4 --rows 1,8,16 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672 --shape 4096x4096 --shape 6144x4096 --shape 28672x4096 --shape 4096x14336 --no-cublas --no-layer"
timeout 120 bash -c "source dist/packed/common.sh; roofline gemv-bench $B --markdown /tmp/o/gemv-new.md" > /tmp/o/gemv-new.txt 2>&1
timeout 120 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline gemv-bench $B --markdown /tmp/o/gemv-old.md" > /tmp/o/gemv-old.txt 2>&1
save gemv
paste <(grep -E "^ +(INT4|NVFP4|MXFP4) " /tmp/o/gemv-new.txt | awk '{printf "%s %s %s\n",$1,$2,$3}') <(grep -E "^ +(INT4|NVFP4|MXFP4) " /tmp/o/gemv-old.txt | awk '{printf "%s\n",$3}') | awk '{printf "%s %s new %s old %s %.3fx\n",$1,$2,$3,$4,$4/$3}'
for r in 1 2; do
  timeout 80 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights INT4,MXFP4 --batch 1,8 --context 1024" > /tmp/o/decode-new-$r.txt 2>&1
  timeout 80 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline decode llama-3-8b --weights INT4,MXFP4 --batch 1,8 --context 1024" > /tmp/o/decode-old-$r.txt 2>&1
  save decode-$r
done
grep -a "us/step" /tmp/o/decode-*.txt | cut -c1-110
