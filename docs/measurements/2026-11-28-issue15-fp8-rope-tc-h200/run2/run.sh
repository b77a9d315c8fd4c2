# FP8 q/k/v with RoPE in the product, again: DecodeKernelsIT's q/k/v RoPE tests with the reference product part by
# part; Llama-3-8B FP8 steps 1 x 1k / 8k base new sio sio new base (base: ae56322's roofline-cuda jar; sio: new with
# the attention's split pass in stream order after the fused q/k/v product at any context)
rm -rf /tmp/b /tmp/o
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call12.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
patchjar /tmp/sio-cuda.jar /tmp/b/gpu/lib/roofline-cuda.jar dist/packed/sio.zip
variant base dist/packed/base-cuda.jar; variant sio /tmp/sio-cuda.jar
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*qkvRope.*'" > /tmp/o/it-kernels.txt 2>&1
grep -a -E "tests (successful|failed)" /tmp/o/it-*.txt; grep -a "✘" /tmp/o/it-*.txt | cut -c1-200 | head -8; save it
i=0; for v in base new sio sio new base; do i=$((i+1))
  b=/tmp/b/gpu; [ $v != new ] && b=/tmp/b/$v
  timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=$b roofline decode llama-3-8b --weights FP8_E4M3 --batch 1 --context 1024,8192" > /tmp/o/decode-$i-$v.txt 2>&1
  grep -a "us/step" /tmp/o/decode-$i-$v.txt | sed -E 's/.*context ([0-9]+) programmatic: ([0-9.]+) us\/step.*read floor ([0-9.]+) us \(([0-9]+) launches.*/'$v' \1: \2 us, floor \3 (\4)/'
  save $i-$v
done
