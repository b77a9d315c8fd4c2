# call 56: issue 20 on an H100: two tiles a block from 5 to 8 rows (the build after d140fa2) against e1b46a0
# (old-cuda.jar): tsk at 4-8 rows, GemvKernelsIT's tiled cases, gemv-bench at 4, 5 and 8 rows, decode at batch 8
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call56.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for f in INT4 NVFP4 MXFP4; do for sh in 28672x4096 28672x8192 8192x8192 8192x28672 6144x4096; do for m in 4 5 6 8; do
  timeout 30 /tmp/tsk $f $sh $m > /tmp/o/tsk-$f-$sh-m$m.txt 2>&1; done; done; done
save tsk; grep -h -E "FAIL|FAILURE" /tmp/o/tsk-*.txt | head; grep -h -c "all checks passed" /tmp/o/tsk-*.txt | paste -sd' '
timeout 170 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[Tt]iled.*'" 2>&1 | strip_ansi > /tmp/o/it-tiled.txt
save it-tiled; grep -E "tests (successful|failed|aborted)" /tmp/o/it-tiled.txt; grep -a -B2 -A8 "✘" /tmp/o/it-tiled.txt | head -20
variant old dist/packed/old-cuda.jar
B="--formats INT4,NVFP4,MXFP4 --rows 4,5,8 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672 --shape 6144x4096 --shape 28672x4096 --no-cublas --no-layer"
timeout 100 bash -c "source dist/packed/common.sh; roofline gemv-bench $B --markdown /tmp/o/gemv-new.md" > /tmp/o/gemv-new.txt 2>&1
timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline gemv-bench $B --markdown /tmp/o/gemv-old.md" > /tmp/o/gemv-old.txt 2>&1
save gemv
paste <(grep -E "^ +(INT4|NVFP4|MXFP4) " /tmp/o/gemv-new.txt | awk '{printf "%s %s %s\n",$1,$2,$3}') <(grep -E "^ +(INT4|NVFP4|MXFP4) " /tmp/o/gemv-old.txt | awk '{printf "%s\n",$3}') | awk '{printf "%s %s new %s old %s %.3fx\n",$1,$2,$3,$4,$4/$3}'
timeout 100 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights INT4,NVFP4,MXFP4 --batch 8 --context 1024" > /tmp/o/decode-new.txt 2>&1
timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline decode llama-3-8b --weights INT4,NVFP4,MXFP4 --batch 8 --context 1024" > /tmp/o/decode-old.txt 2>&1
save decode; grep -a "us/step" /tmp/o/decode-*.txt | cut -c1-110
