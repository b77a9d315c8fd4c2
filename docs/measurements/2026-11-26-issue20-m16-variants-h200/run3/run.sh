# call 22 (H200): issue 20 — INT4 at one row on the rolling-window tiled kernel up to 528 blocks (gemv_int4_f16_m1_tiled_r3)
# against the build before it (old-cuda.jar = 2298268) in one call: gemv-bench at six shapes, the Llama-3-8B INT4 batch 1
# x 1k step; GemvKernelsIT on the new build
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call22.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant old dist/packed/old-cuda.jar
SH="--shape 4096x4096 --shape 6144x4096 --shape 4096x14336 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672"
bench() { ROOFLINE_BUNDLE=/tmp/b/$1 timeout 120 bash -c "source dist/packed/common.sh; roofline gemv-bench --formats INT4 $SH --rows 1 --no-layer --no-cublas --markdown /tmp/o/gemv-$2.md" > /tmp/o/gemv-$2.txt 2>&1; }
bench gpu new; bench old old; bench gpu new2; bench old old2; save bench
for f in new old new2 old2; do echo "## $f"; grep -E "^[0-9]+x[0-9]+ +1 +INT4" /tmp/o/gemv-$f.txt | awk "{print \$1,\$4,\$(NF-6),\$(NF-5)}"; done
step() { ROOFLINE_BUNDLE=/tmp/b/$1 timeout 120 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights INT4 --batch 1 --context 1024 --format markdown" > /tmp/o/step-$2.md 2>&1; }
step gpu new; step old old; step gpu new2; step old old2; save step
for f in new old new2 old2; do echo "## $f"; grep -a "us/step" /tmp/o/step-$f.md | cut -c1-200; done
timeout 300 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -E "tests (successful|failed|aborted)" /tmp/o/it.txt; grep -a -B2 -A8 "✘" /tmp/o/it.txt | head -30
