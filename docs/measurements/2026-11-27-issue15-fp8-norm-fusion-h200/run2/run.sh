# call 157: issue 15, FP8 norms in the products' epilogues with the 8-row FP8 tensor-core kernels bounded to their old
# blocks an SM: pre (the epilogue's loads before the K loop, 24 bytes spilled) and nopre (loaded at the tail, no
# spill), sm_90a fatbins in the new jar; FP8 steps 1 x 1k and 8k, norms launched (off) and fused (on), against base
# (d0104f3's jar); then GemvKernelsIT on nopre
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call157.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; variant pre dist/packed/pre-cuda.jar; variant nopre dist/packed/nopre-cuda.jar
i=0; for v in base nopre-off nopre-on pre-on pre-off pre-on nopre-on nopre-off base; do i=$((i+1))
  b=/tmp/b/${v%-*}; opt=""; [ "${v#*-}" = on ] && opt="-Droofline.exp.fp8norms=true"
  timeout 100 bash -c "source dist/packed/common.sh; JAVA_TOOL_OPTIONS='$opt' ROOFLINE_BUNDLE=$b roofline decode llama-3-8b --weights FP8_E4M3 --batch 1 --context 1024,8192" > /tmp/o/decode-$i-$v.txt 2>&1
  grep -a "us/step" /tmp/o/decode-$i-$v.txt | sed -E 's/.*context ([0-9]+) programmatic: ([0-9.]+) us\/step.*read floor ([0-9.]+) us \(([0-9]+) launches.*/'$v' \1: \2 us, floor \3 (\4)/'
  save $i-$v
done
timeout 240 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/nopre junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT" > /tmp/o/it-gemv.txt 2>&1
grep -a -E "tests (successful|failed)" /tmp/o/it-gemv.txt; grep -a "✘" /tmp/o/it-gemv.txt | head; save it
