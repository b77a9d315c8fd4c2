# call 162: issue 15: residency cap variants (roofline.gemv.cap = off / all / cc (CUDA-core kernels only) / qkv (the
# FP16 q/k/v + RoPE kernel only); roofline.gemv.carveout: max-shared preference on capped kernels) on FP8 and FP16
# batch 1 x 1k steps
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call162.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
i=0; for v in off all cc qkv qkvC off; do i=$((i+1))
  case $v in off) J="";; all) J="-Droofline.gemv.cap=all";; cc) J="-Droofline.gemv.cap=cc";; qkv) J="-Droofline.gemv.cap=qkv";; qkvC) J="-Droofline.gemv.cap=qkv -Droofline.gemv.carveout=true";; esac
  timeout 120 bash -c "source dist/packed/common.sh; JOPTS='$J' roofline decode llama-3-8b --weights FP8_E4M3,FP16 --batch 1 --context 1024" > /tmp/o/decode-$i-$v.txt 2>&1
  grep -a "us/step" /tmp/o/decode-$i-$v.txt | sed -E 's/^Llama-3-8B ([A-Z0-9_]+) batch ([0-9]+) context ([0-9]+) programmatic: ([0-9.]+) us\/step.*read floor ([0-9.]+) us.*/'$v' \1: \4 us, floor \5/'
  grep -a -E "^(qkv_proj|o_proj|gate_up_proj|down_proj|lm_head|sum of) " /tmp/o/decode-$i-$v.txt | sed 's/sum of operators/sum/' | tr -s ' ' | cut -d" " -f1,5 | tr '\n' ';'; echo
  save $i-$v
done
