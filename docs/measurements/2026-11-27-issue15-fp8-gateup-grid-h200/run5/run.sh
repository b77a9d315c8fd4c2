# call 170: issue 15: the attention's chunks rounded to 8 tokens (s8) or 1 (s1) instead of 16 (base), so that one row's
# split pass fills its wave at 8k and 16k (exp jar = committed + chunk-step.diff): attention-bench FP16 at batch 1,
# base s8 s1 s1 s8 base; BF16/FP8 caches base s8; DecodeKernelsIT's attention tests on s8 and s1; FP16 steps 1 x 8k/16k
source dist/packed/common.sh
S=$(date +%s); mkdir -p $OUT/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > $OUT/o/device.txt; cat $OUT/o/device.txt
variant exp dist/packed/exp-cuda.jar
opts() { case $1 in base) echo "";; s8) echo "-Droofline.exp.chunkStep=8";; s1) echo "-Droofline.exp.chunkStep=1";; esac; }
bun() { [ $1 = base ] && echo /tmp/b/gpu || echo /tmp/b/exp; }
i=0; for v in base s8 s1 s1 s8 base; do i=$((i+1))
  JOPTS="$(opts $v)" ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp16 --batch 1 --context 4096,8192,16384,32768" > $OUT/o/attention-$i-$v.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]"; tail -7 $OUT/o/attention-$i-$v.txt | cut -c1-200
done
for v in base s8; do i=$((i+1))
  JOPTS="$(opts $v)" ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv bf16,fp8 --batch 1 --context 8192,16384" > $OUT/o/attention-$i-$v.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]"; tail -6 $OUT/o/attention-$i-$v.txt | cut -c1-200
done
for v in s8 s1; do
  JOPTS="$(opts $v)" ROOFLINE_BUNDLE=/tmp/b/exp timeout 120 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > $OUT/o/it-$v.txt 2>&1
  echo "IT $v: $(grep -a -E 'tests (successful|failed)' $OUT/o/it-$v.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"
done
for c in 8192 16384; do for v in base s8; do i=$((i+1))
  JOPTS="$(opts $v)" ROOFLINE_BUNDLE=$(bun $v) timeout 90 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1 --context $c" > $OUT/o/decode-$i-$v-$c.txt 2>&1
  echo "$i $v $c: $(grep -a 'us/step' $OUT/o/decode-$i-$v-$c.txt | cut -c1-120) [$(( $(date +%s) - S )) s]"
  grep -a -E "^attention " $OUT/o/decode-$i-$v-$c.txt | tr -s ' '
done; done
