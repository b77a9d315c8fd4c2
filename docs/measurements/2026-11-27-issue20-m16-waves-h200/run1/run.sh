# call 134 (H100): issue 20, NVFP4 and MXFP4 at one row split over clusters of 2 on at most 2 tiles an SM and
# K >= 8192 with no DRAM condition (split1: 01b011f's jar with SPLIT_ONE_ROW_MIN_DRAM_BYTES_PER_SM_CYCLE = 0) against
# 01b011f (base, which does not split at one row on an H100): gemv-bench NVFP4 / MXFP4 at one row over six shapes
# (base, split1, split1, base); Llama-3-8B NVFP4 / MXFP4 batch 1 x 1k steps (base, split1, split1, base);
# GemvKernelsIT tiledWeights on split1; tsk at 16 rows over grids of 1 to 3.39 waves (28672, 25344, 16896, 8448 x 8192)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call134.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
patchjar /tmp/split1.jar /tmp/b/gpu/lib/roofline-cuda.jar dist/packed/split1-classes.zip; variant split1 /tmp/split1.jar; ln -sfn /tmp/b/gpu /tmp/b/base
B="--formats NVFP4,MXFP4 --rows 1 --shape 2048x8192 --shape 4096x14336 --shape 4096x28672 --shape 4224x14336 --shape 4096x4096 --shape 8192x8192 --no-cublas --no-layer"
i=0; for v in base split1 split1 base; do i=$((i+1))
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline gemv-bench $B --markdown /tmp/o/gemv-$i-$v.md" > /tmp/o/gemv-$i-$v.txt 2>&1
  save gemv-$i-$v
done
i=0; for v in base split1 split1 base; do i=$((i+1)); for w in NVFP4 MXFP4; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights $w --batch 1 --context 1024" > /tmp/o/decode-$w-$i-$v.txt 2>&1
done; save decode-$i-$v; done
grep -a "us/step" /tmp/o/decode-*.txt | sed -E 's/ programmatic: ([0-9.]+) us.*/ \1/'
timeout 200 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/split1 junit -c dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*#tiledWeights(\(.*)?'" 2>&1 | strip_ansi > /tmp/o/it.txt
grep -E "tests (successful|failed)" /tmp/o/it.txt; save it
mkdir -p /tmp/p && xz -dc dist/probe/tsk.xz > /tmp/p/tsk && chmod +x /tmp/p/tsk
for s in 28672x8192 25344x8192 16896x8192 8448x8192; do for f in INT4 NVFP4 MXFP4; do
  timeout 60 /tmp/p/tsk $f $s 16 > /tmp/o/tsk-$f-$s.txt 2>&1; done; save tsk-$s; done
grep -h "tiled m16\|ks2 m16" /tmp/o/tsk-*.txt
