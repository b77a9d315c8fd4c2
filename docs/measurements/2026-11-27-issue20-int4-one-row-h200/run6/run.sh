# NVFP4 one-row variants of run 5 (tsk-fp4, the same build) on an H100, nine shapes incl. the 28672-row ones, twice
cd dist/probe
for r in 1 2; do for sh in 4096x14336 2048x14336 2096x8576 4096x4096 4096x8192 6144x4096 8192x8192 28672x4096 28672x8192; do
  timeout 60 ./tsk-fp4 NVFP4 $sh 1 > $OUT/fp4h-$r-NVFP4-$sh.txt 2>&1
done; done
for sh in 28672x4096 28672x8192; do timeout 60 ./tsk-fp4 NVFP4 $sh 1 > /dev/null 2>&1; done
cd $OUT && tar -czf fp4h.tgz *.txt && rm -f *.txt && tar -xzOf fp4h.tgz | grep -a "checks\|CORRECT\|illegal\|device" | sort | uniq -c
