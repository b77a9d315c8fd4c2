# call 8 (H200): why the tiled kernels' decode step at batch 8 is slower than their profiled operators: the step in
# ordered and programmatic launch order (this build and the build before the tiled layout), and a build whose tiled
# kernels let the next kernel launch only after their K loop (late-cuda.jar: griddepcontrol.launch_dependents moved
# from the kernel's start to just before its shared-memory reduction), calibrated at batch 1
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call8.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
step() { grep -a "^Llama" $1 | sed 's/ (.*roofline / roofline /' | cut -c1-120; }
timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights NVFP4,INT4 --batch 1,8,16 --context 1024 --launch ordered,programmatic --format markdown" > /tmp/o/decode-tiled-launch.md 2>&1
save tiled; step /tmp/o/decode-tiled-launch.md
variant old dist/packed/old-cuda.jar
timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/old roofline decode llama-3-8b --weights NVFP4,INT4 --batch 1,8,16 --context 1024 --launch ordered --format markdown" > /tmp/o/decode-old-ordered.md 2>&1
save old; step /tmp/o/decode-old-ordered.md
variant late dist/packed/late-cuda.jar
timeout 200 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/late roofline decode llama-3-8b --weights NVFP4,INT4 --batch 1,8,16,32 --context 1024 --calibrate /tmp/o/calibration-late.json --format markdown" > /tmp/o/decode-late.md 2>&1
save late; step /tmp/o/decode-late.md; grep -a "held out\|calibration " /tmp/o/decode-late.md | grep -a "^|"
