# INT4 one-row: the 3-blocks-an-SM 4-step kernel (unroll 4 b3) against the shipped plain and r2 kernels at grids up to
# 3.9 blocks an SM; the same tsk-int4 as run 1
cd dist/probe
for r in 1 2; do for sh in 4096x14336 2096x8576 4096x8192 2048x14336 4096x28672 3072x8192 4096x4096 6144x14336 1024x14336 6144x8192; do
  timeout 60 ./tsk-int4 INT4 $sh 1 > $OUT/int4b-$r-$sh.txt 2>&1
done; done
cd $OUT && tar -czf int4b.tgz *.txt && rm -f *.txt && tar -xzOf int4b.tgz | grep -a "checks\|CORRECT\|illegal" | sort | uniq -c
