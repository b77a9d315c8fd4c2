# call 45: issue 20. (1) tsk: INT4's 8-row window capped at 4 blocks an SM at 8192x28672 / 8192^2 and 2-8 rows; one-row
# variants (two tiles a block, a window of 2); (2) gemv-bench A/B: MXFP4's output scale from shared memory (new) against
# e1b46a0 (old-cuda.jar); (3) GemvKernelsIT tiled cases; (4) MXFP4 decode steps, both builds
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call45.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for a in "INT4 8192x28672 2" "INT4 8192x28672 4" "INT4 8192x28672 8" "INT4 8192x8192 2" "INT4 8192x8192 4" "INT4 4096x14336 2"; do
  set -- $a; timeout 60 /tmp/tsk $1 $2 $3 > /tmp/o/tsk-$1-$2-m$3.txt 2>&1
done
timeout 90 /tmp/tsk INT4 "" 1 > /tmp/o/tsk-INT4-m1.txt 2>&1
timeout 90 /tmp/tsk MXFP4 "" 1 > /tmp/o/tsk-MXFP4-m1.txt 2>&1
save tsk; grep -h -E "pipe|shipped|tiled|FAIL|passed|FAILURE" /tmp/o/tsk-*.txt | cut -c1-110
variant old dist/packed/old-cuda.jar
B="--formats INT4,NVFP4,MXFP4 --rows 1,8,16 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672 --shape 4096x14336 --no-cublas --no-layer"
timeout 120 bash -c "source dist/packed/common.sh; roofline gemv-bench $B --markdown /tmp/o/gemv-new.md" > /tmp/o/gemv-new.txt 2>&1
timeout 120 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline gemv-bench $B --markdown /tmp/o/gemv-old.md" > /tmp/o/gemv-old.txt 2>&1
save gemv
paste <(grep -E "^(8192|4096|28672)x" /tmp/o/gemv-new.txt | awk '{printf "%s %s %s %s\n",$1,$2,$3,$4}') <(grep -E "^(8192|4096|28672)x" /tmp/o/gemv-old.txt | awk '{printf "%s\n",$4}') | awk '{printf "%s %s %s new %s old %s %.3fx\n",$1,$2,$3,$4,$5,$5/$4}'
timeout 150 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[Tt]iled.*'" 2>&1 | strip_ansi > /tmp/o/it-tiled.txt
save it-tiled; grep -E "tests (successful|failed|aborted)" /tmp/o/it-tiled.txt; grep -a -B2 -A8 "✘" /tmp/o/it-tiled.txt | head -20
timeout 100 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights MXFP4 --batch 1,8 --context 1024" > /tmp/o/decode-new.txt 2>&1
timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline decode llama-3-8b --weights MXFP4 --batch 1,8 --context 1024" > /tmp/o/decode-old.txt 2>&1
save decode; grep -a "us/step" /tmp/o/decode-new.txt /tmp/o/decode-old.txt | cut -c1-110
