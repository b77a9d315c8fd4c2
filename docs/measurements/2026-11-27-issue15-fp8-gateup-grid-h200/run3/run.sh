# call 168: issue 15: FP8 one-row products on the CUDA cores instead of the 16-warp tensor-core kernel: down only
# (dcc: -Droofline.exp.fp8TcMaxK=4096), o and down (occ: -Droofline.exp.fp8TcMinN=4097); the exp jar is the committed
# tree + down-cuda-cores.diff; Llama-3-8B FP8 batch 1 x 1k base dcc occ occ dcc base, then 1 x 8k base dcc
source dist/packed/common.sh
S=$(date +%s); mkdir -p $OUT/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > $OUT/o/device.txt; cat $OUT/o/device.txt
variant exp dist/packed/exp-cuda.jar
run() { # run TAG CONTEXT
  local b=/tmp/b/exp j=""
  case $1 in base) b=/tmp/b/gpu;; dcc) j="-Droofline.exp.fp8TcMaxK=4096";; occ) j="-Droofline.exp.fp8TcMinN=4097";; esac
  JOPTS="$j" ROOFLINE_BUNDLE=$b timeout 90 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3 --batch 1 --context $2" > $OUT/o/decode-$i-$1-$2.txt 2>&1
  echo "$i $1 $2: $(grep -a 'us/step' $OUT/o/decode-$i-$1-$2.txt | cut -c1-150) [$(( $(date +%s) - S )) s]"
  grep -a -E "^(qkv_proj|o_proj|gate_up_proj|down_proj|sum of)" $OUT/o/decode-$i-$1-$2.txt | tr -s ' ' | cut -c1-160
}
i=0; for v in base dcc occ occ dcc base; do i=$((i+1)); run $v 1024; done
for v in base dcc; do i=$((i+1)); run $v 8192; done
