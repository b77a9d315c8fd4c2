# call 161: issue 15: pending ITs (GemvKernelsIT epilogue, DenseDecoderIT, CheckpointWeightsIT); GEMV residency cap
# (roofline.gemv.cap: dynamic shared memory bounding blocks an SM to ceil(grid / SMs)) off/on/on/off on FP16 and FP8
# batch 1 x 1k steps
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call161.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
i=0; for v in off on on off; do i=$((i+1))
  J=""; [ $v = on ] && J="-Droofline.gemv.cap=true"
  JOPTS="$J" timeout 120 bash -c "source dist/packed/common.sh; JOPTS='$J' roofline decode llama-3-8b --weights FP8_E4M3,FP16 --batch 1 --context 1024" > /tmp/o/decode-$i-$v.txt 2>&1
  grep -a "us/step" /tmp/o/decode-$i-$v.txt | sed -E 's/^Llama-3-8B ([A-Z0-9_]+) batch ([0-9]+) context ([0-9]+) programmatic: ([0-9.]+) us\/step.*read floor ([0-9.]+) us.*/'$v' \1: \4 us, floor \5/'
  grep -a -E "^(o_proj|down_proj|qkv_proj) " /tmp/o/decode-$i-$v.txt | tr -s ' ' | cut -d" " -f1,5,8,9 | tr '\n' ';'; echo
  save $i-$v
done
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --include-methodname '.*[eE]pilogue.*'" > /tmp/o/it-gemv.txt 2>&1
grep -a -E "tests (successful|failed)" /tmp/o/it-gemv.txt; save it1
timeout 200 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.CheckpointWeightsIT" > /tmp/o/it-decoder.txt 2>&1
grep -a -E "tests (successful|failed)" /tmp/o/it-decoder.txt; save it2
