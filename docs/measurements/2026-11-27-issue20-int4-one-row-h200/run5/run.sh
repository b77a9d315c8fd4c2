# NVFP4 / MXFP4 one-row: plain trips of 2 or 4 steps capped at 3 or 4 blocks an SM (tsk-fp4: tiled_splitk.cu of 48186ca
# with tsk-fp4-variants.diff) against the shipped kernels, seven shapes, twice
cd dist/probe
for r in 1 2; do for sh in 4096x14336 2048x14336 2096x8576 4096x4096 4096x8192 6144x4096 8192x8192; do
  for f in NVFP4 MXFP4; do timeout 60 ./tsk-fp4 $f $sh 1 > $OUT/fp4-$r-$f-$sh.txt 2>&1; done
done; done
cd $OUT && tar -czf fp4.tgz *.txt && rm -f *.txt && tar -xzOf fp4.tgz | grep -a "checks\|CORRECT\|illegal" | sort | uniq -c
