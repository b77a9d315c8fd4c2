# call 6 (H200): the native FP4 check with the GPU machine's CUDA 13.0 (PTX, ptxas, machine code) on the shipped
# fatbin and on one without the native kernels (231d208, must fail); native-FP4 ITs; the decode sweep calibrated with
# the bytes-normalised row classes, checked at batch 8/16/32 × 1k/8k and 32k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call6.tgz o; }
nvidia-smi --query-gpu=name,driver_version --format=csv > /tmp/o/device.txt
python3 -c "import zipfile;open('/tmp/shipped.fatbin','wb').write(zipfile.ZipFile('/tmp/b/gpu/lib/roofline-cuda.jar').read('dev/roofline/cuda/kernels/gemv.fatbin'))"
ls /usr/local/cuda-13.0/bin/ > /tmp/o/cuda-bin.txt
(time bash scripts/check-native-fp4.sh /usr/local/cuda-13.0/bin/nvcc /tmp/shipped.fatbin; echo "rc $?") > /tmp/o/check-shipped.txt 2>&1
(bash scripts/check-native-fp4.sh /usr/local/cuda-13.0/bin/nvcc dist/packed/gemv-231d208.fatbin; echo "rc $?") > /tmp/o/check-231d208.txt 2>&1
save check; cat /tmp/o/check-shipped.txt /tmp/o/check-231d208.txt
timeout 100 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.NativeFp4GemvIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted" /tmp/o/it.txt; grep -a -B2 -A6 "✘" /tmp/o/it.txt | head -20
timeout 300 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8,16,32 --context 1024,8192 --calibrate /tmp/o/calibration.json --format markdown" > /tmp/o/decode-sweep.md 2>&1
save sweep; grep -a "held out\|efficien" /tmp/o/decode-sweep.md | head -40
timeout 120 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8 --context 32768 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/decode-32k.md 2>&1
save 32k; grep -a "held out" /tmp/o/decode-32k.md | head -10
