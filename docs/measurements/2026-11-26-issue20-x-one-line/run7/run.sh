# call 66: issue 20, the final build (x read one line a load for INT4 and NVFP4, MXFP4's lanes as before, two tiles a
# block at 5-8 rows for MXFP4 only): tsk checks, the tiled GEMV and decoder ITs, gemv-bench (1-16 rows, seven shapes)
# and decode steps (batch 1 and 8 x 1k) against a9e2de1 (old-cuda.jar) in the same call
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call66.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for sh in 8192x8192 28672x4096 4096x14336; do for f in INT4 NVFP4 MXFP4; do for m in 1 5 8 16; do
  timeout 30 /tmp/tsk $f $sh $m > /tmp/o/tsk-$f-$sh-m$m.txt 2>&1; done; done; done
save tsk; grep -h -E "FAIL|FAILURE| NO" /tmp/o/tsk-*.txt | head; grep -L "all checks passed" /tmp/o/tsk-*.txt | head
variant old dist/packed/old-cuda.jar
B="--formats INT4,NVFP4,MXFP4 --rows 1,2,4,8,16 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672 --shape 4096x4096 --shape 6144x4096 --shape 28672x4096 --shape 4096x14336 --no-cublas --no-layer"
timeout 100 bash -c "source dist/packed/common.sh; roofline gemv-bench $B --markdown /tmp/o/gemv-new.md" > /tmp/o/gemv-new.txt 2>&1
timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline gemv-bench $B --markdown /tmp/o/gemv-old.md" > /tmp/o/gemv-old.txt 2>&1
save gemv
timeout 70 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights INT4,NVFP4,MXFP4 --batch 1,8 --context 1024" > /tmp/o/decode-new.txt 2>&1
timeout 70 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline decode llama-3-8b --weights INT4,NVFP4,MXFP4 --batch 1,8 --context 1024" > /tmp/o/decode-old.txt 2>&1
save decode; grep -a "us/step" /tmp/o/decode-*.txt | sed -E 's/ programmatic: ([0-9.]+) us.*/ \1/'
timeout 170 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[Tt]iled.*'" 2>&1 | strip_ansi > /tmp/o/it-tiled.txt
save it-tiled; grep -E "tests (successful|failed|aborted)" /tmp/o/it-tiled.txt; grep -a -B2 -A8 "✘" /tmp/o/it-tiled.txt | head -20
timeout 120 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.decode.DenseDecoderIT -c dev.roofline.cuda.decode.CheckpointWeightsIT" 2>&1 | strip_ansi > /tmp/o/it-decoder.txt
save it-decoder; grep -E "tests (successful|failed|aborted)" /tmp/o/it-decoder.txt; grep -a -B2 -A8 "✘" /tmp/o/it-decoder.txt | head -20
