# call 172: issue 15: the attention's chunks rounded to 32 (s32) or 64 (s64) tokens instead of 16 (base), fewer split
# blocks at 8k and 16k (exp jar = committed + chunk-step.diff): attention-bench FP16 batch 1 and 8, base s32 s64 s64 s32 base
source dist/packed/common.sh
S=$(date +%s); mkdir -p $OUT/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > $OUT/o/device.txt; cat $OUT/o/device.txt
variant exp dist/packed/exp-cuda.jar
opts() { case $1 in base) echo "";; s32) echo "-Droofline.exp.chunkStep=32";; s64) echo "-Droofline.exp.chunkStep=64";; esac; }
bun() { [ $1 = base ] && echo /tmp/b/gpu || echo /tmp/b/exp; }
i=0; for v in base s32 s64 s64 s32 base; do i=$((i+1))
  JOPTS="$(opts $v)" ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp16 --batch 1,8 --context 4096,8192,16384,32768" >> $OUT/o/attention.txt 2>&1
  echo "== $i $v [$(( $(date +%s) - S )) s]" | tee -a $OUT/o/attention.txt; tail -9 $OUT/o/attention.txt | head -8 | cut -c1-120
done
