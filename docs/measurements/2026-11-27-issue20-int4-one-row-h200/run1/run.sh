# INT4 one-row variants: tsk-int4 is roofline-cuda/src/bench/gemv/tiled_splitk.cu of 478240e with ../tsk-variants.diff,
# built with nvcc -std=c++17 -O3 -arch=sm_90a; five shapes, twice
cd dist/probe
for r in 1 2; do for sh in 28672x8192 8192x8192 8192x28672 28672x4096 4096x14336; do
  timeout 60 ./tsk-int4 INT4 $sh 1 > $OUT/int4-$r-$sh.txt 2>&1
done; done
cd $OUT && tar -czf int4.tgz *.txt && rm -f *.txt && tar -xzOf int4.tgz | grep -a "checks\|CORRECT\|illegal" | sort | uniq -c
