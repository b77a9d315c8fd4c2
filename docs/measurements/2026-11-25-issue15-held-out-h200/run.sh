# call 3 (H200): decoder/GEMV ITs on the x-ahead _m32 build, the decode sweep calibrated at batch 1 x 1k and checked on
# batch 8/16/32 and 8k, the 32k held-out steps, and the fatbin's SASS read by Triton's cuobjdump
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call3.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
TB=$(python3 -c "import triton,os;print(os.path.dirname(triton.__file__))" 2>/dev/null)/backends/nvidia/bin
python3 - <<'P'
import zipfile
z = zipfile.ZipFile('/tmp/b/gpu/lib/roofline-cuda.jar')
open('/tmp/shipped.fatbin', 'wb').write(z.read('dev/roofline/cuda/kernels/gemv.fatbin'))
P
for F in /tmp/shipped.fatbin; do
  [ -f $F ] || continue; n=$(basename $F .fatbin)
  $TB/cuobjdump --version > /tmp/o/cuobjdump-$n.txt 2>&1
  $TB/cuobjdump -lelf -lptx $F >> /tmp/o/cuobjdump-$n.txt 2>&1
  for a in sm_90a sm_100a sm_120a sm_121a; do $TB/cuobjdump -sass -arch $a $F > /tmp/o/sass-$n-$a.txt 2>&1; echo "$n $a rc $? lines $(wc -l < /tmp/o/sass-$n-$a.txt) LDL $(grep -c 'LDL' /tmp/o/sass-$n-$a.txt) STL $(grep -c 'STL' /tmp/o/sass-$n-$a.txt) HMMA $(grep -c HMMA /tmp/o/sass-$n-$a.txt) OMMA $(grep -c 'OMMA' /tmp/o/sass-$n-$a.txt) QMMA $(grep -c 'QMMA' /tmp/o/sass-$n-$a.txt) block-scaled $(grep -cE 'MMA\.[A-Z0-9._]*(SF|E2M1|UE4M3)' /tmp/o/sass-$n-$a.txt)"; head -c 300 /tmp/o/sass-$n-$a.txt | head -3; grep -m3 -E 'MMA\.[A-Z0-9._]*(SF|E2M1|UE4M3)' /tmp/o/sass-$n-$a.txt; awk '/Function : gemv_nvfp4_w4a4_m1_w8$/{f=1} f&&/MMA/{print; c++} c>=2{exit}' /tmp/o/sass-$n-$a.txt; done | tee -a /tmp/o/cuobjdump-$n.txt
done
tar -C /tmp/o -czf /tmp/o/sass.tgz $(cd /tmp/o && ls sass-*.txt) && rm /tmp/o/sass-*.txt
save sass
timeout 200 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.NativeFp4GemvIT --select-class dev.roofline.cuda.kernels.GemvKernelsIT --select-class dev.roofline.cuda.kernels.MoeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted" /tmp/o/it.txt; grep -a -B2 -A6 "✘" /tmp/o/it.txt | head -30
timeout 280 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8,16,32 --context 1024,8192 --calibrate /tmp/o/calibration.json --format markdown" > /tmp/o/decode-sweep.md 2>&1
save sweep; grep -a "us/step" /tmp/o/decode-sweep.md | sed "s/ context / C/;s/(measured ceilings)//" | cut -c1-330; grep -a -A40 "calibration check\|held out" /tmp/o/decode-sweep.md | head -60
timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8 --context 32768 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/decode-32k.md 2>&1
save 32k; grep -a -A16 "calibration check\|held out" /tmp/o/decode-32k.md | head -30
