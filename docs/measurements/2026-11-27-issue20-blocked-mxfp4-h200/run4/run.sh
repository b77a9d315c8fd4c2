# tsk-old (3afed11: MXFP4 FP16 on the BF16-activation layout) and tsk-new (the blocked layout, sums carried a step)
cd dist/probe
for sh in 8192x8192 28672x8192 8192x28672 4096x4096 6144x4096 28672x4096 4096x14336; do
  for t in old new; do timeout 60 ./tsk-$t MXFP4 $sh > $OUT/tsk-$t-$sh.txt 2>&1; done
done
for sh in 8192x8192 28672x4096 4096x14336; do for m in 2 4; do
  for t in old new; do timeout 60 ./tsk-$t MXFP4 $sh $m > $OUT/tsk-$t-$sh-m$m.txt 2>&1; done
done; done
cd $OUT && tar -czf tsk.tgz *.txt && rm -f *.txt && tar -xzOf tsk.tgz | grep -a "checks\|CORRECT\|illegal" | sort | uniq -c
