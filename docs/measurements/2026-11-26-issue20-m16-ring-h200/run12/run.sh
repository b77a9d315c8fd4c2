# call 101 (H200): issue 20, the 16-row tiled kernels computing both B fragments at every row count (new) against
# 148a59e (base): gemv-bench INT4/NVFP4/MXFP4 at 1, 12 and 16 rows over seven shapes (base, new, new, base), the tiled
# GEMV ITs on new; Llama-3-8B NVFP4 and MXFP4 decode steps at batch 16 x 1k (base, new); the harness tsk built from
# both trees at 16 rows (its BF16 tiled timings)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call101.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
B="--formats INT4,NVFP4,MXFP4 --rows 1,12,16 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672 --shape 4096x4096 --shape 6144x4096 --shape 28672x4096 --shape 4096x14336 --no-cublas --no-layer"
i=0; for v in base new new base; do i=$((i+1))
  timeout 80 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline gemv-bench $B --markdown /tmp/o/gemv-$i-$v.md" > /tmp/o/gemv-$i-$v.txt 2>&1
  save gemv-$i-$v
done
for v in base new; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights NVFP4,MXFP4 --batch 16 --context 1024" > /tmp/o/decode-$v.txt 2>&1
  save decode-$v
done
grep -a "us/step" /tmp/o/decode-*.txt | sed -E 's/ programmatic: ([0-9.]+) us.*/ \1/'
for t in old new; do xz -dc dist/packed/tsk-$t.xz > /tmp/tsk-$t; chmod +x /tmp/tsk-$t; done
for sh in 8192x8192 28672x8192; do for t in old new; do timeout 40 /tmp/tsk-$t "" $sh 16 > /tmp/o/tsk-$t-$sh.txt 2>&1; done; done
save tsk; grep -h "bf16 tiled\|tiled m16\|checks" /tmp/o/tsk-*.txt | cut -c1-100
timeout 170 bash -c "source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[Tt]iled.*'" 2>&1 | strip_ansi > /tmp/o/it-tiled.txt
save it-tiled; grep -E "tests (successful|failed|aborted)" /tmp/o/it-tiled.txt; grep -a -B2 -A8 "✘" /tmp/o/it-tiled.txt | head -20
