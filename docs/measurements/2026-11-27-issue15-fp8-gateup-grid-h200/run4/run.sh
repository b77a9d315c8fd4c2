# call 169: issue 15: FP8 gate/up (28672 x 4096, one row) on the tensor cores: 16 warps (tc16) or 8 (tc8), exp jar = committed + one-row-tc.diff
source dist/packed/common.sh
S=$(date +%s); mkdir -p $OUT/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > $OUT/o/device.txt; cat $OUT/o/device.txt
variant exp dist/packed/exp-cuda.jar
run() { # run TAG CONTEXT
  local b=/tmp/b/exp j=""
  case $1 in base) b=/tmp/b/gpu;; tc16) j="-Droofline.exp.fp8TcMaxN=28672";; tc8) j="-Droofline.exp.fp8TcMaxN=28672 -Droofline.exp.fp8TcWarps=8";; esac
  JOPTS="$j" ROOFLINE_BUNDLE=$b timeout 90 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3 --batch 1 --context $2" > $OUT/o/decode-$i-$1-$2.txt 2>&1
  echo "$i $1 $2: $(grep -a 'us/step' $OUT/o/decode-$i-$1-$2.txt | cut -c1-150) [$(( $(date +%s) - S )) s]"
  grep -a -E "^(qkv_proj|o_proj|gate_up_proj|down_proj|sum of)" $OUT/o/decode-$i-$1-$2.txt | tr -s ' ' | cut -c1-160
}
i=0; for v in base tc16 tc8 tc8 tc16 base; do i=$((i+1)); run $v 1024; done
for v in base tc16 tc8; do i=$((i+1)); run $v 8192; done
