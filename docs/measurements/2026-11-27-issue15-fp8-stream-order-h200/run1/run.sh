# call 119: issue 15, the 8-bit one-row products launched in plain stream order instead of programmatically: the
# bundle of 3a9cfe6 with a roofline-cuda jar that reads -Droofline.exp (tc: the one-row tensor-core FP8 / INT8
# products; all: every one-row FP8 / INT8 product; unset: as shipped); Llama-3-8B FP8 decode steps at batch 1 x 1k and
# 8k, each variant in the order ship tc all all tc ship
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call119.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant exp dist/packed/exp-cuda.jar
i=0; for v in ship tc all all tc ship; do i=$((i+1))
  opt=""; [ $v != ship ] && opt="-Droofline.exp=$v"
  for cfg in "FP8_E4M3 1024" "FP8_E4M3 8192"; do set -- $cfg
    timeout 60 bash -c "source dist/packed/common.sh; JAVA_TOOL_OPTIONS='$opt' ROOFLINE_BUNDLE=/tmp/b/exp roofline decode llama-3-8b --weights $1 --batch 1 --context $2" > /tmp/o/decode-$i-$v-$1-$2.txt 2>&1
  done
  save $i-$v
done
grep -a "us/step" /tmp/o/decode-*.txt | sed -E 's/ programmatic: ([0-9.]+) us.*/ \1/; s#/tmp/o/##'
