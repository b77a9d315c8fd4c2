# call 4 (H200): native-FP4 ITs; the decode sweep calibrated at batch 1 x 1k with the products' row scaling, checked on
# batch 8/16/32, 8k and 32k; the GEMV sweep at M = 1..32 beside cuBLASLt and PyTorch (issue 20's H200 sweep)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call4.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 120 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.NativeFp4GemvIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted" /tmp/o/it.txt; grep -a -B2 -A6 "✘" /tmp/o/it.txt | head -30
timeout 330 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8,16,32 --context 1024,8192 --calibrate /tmp/o/calibration.json --format markdown" > /tmp/o/decode-sweep.md 2>&1
save sweep; grep -a -A40 "calibration check\|held out" /tmp/o/decode-sweep.md | grep -a "held out\|calibration\|efficien" | head -45
timeout 120 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8 --context 32768 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/decode-32k.md 2>&1
save 32k; grep -a "held out" /tmp/o/decode-32k.md | head -10
PYTHONUNBUFFERED=1 timeout 100 python3 roofline-cuda/src/bench/python/gemv_torch.py --rows 1,2,4,8,16,32 --shape 8192x8192 --shape 28672x8192 --shape 8192x28672 > /tmp/o/torch-gemv.txt 2>&1
save torch; tail -5 /tmp/o/torch-gemv.txt
timeout 300 bash -c "source dist/packed/common.sh; roofline gemv-bench --rows 1,2,4,8,16,32 --no-layer --markdown /tmp/o/gemv-sweep.md" > /tmp/o/gemv-sweep.txt 2>&1
save gemv; grep -E "^(8192|28672)x" /tmp/o/gemv-sweep.txt | awk '{print $1,$2,$3,$4,$5}' | head -130
