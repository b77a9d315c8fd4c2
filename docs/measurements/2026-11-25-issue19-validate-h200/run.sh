# call 1 (H200): SASS check of the fatbin, GEMV sweep (FP8/INT8 M=1 variants), validate, ITs, _m32 lazy vs x-ahead
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call1.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
TB=$(python3 -c "import triton,os;print(os.path.dirname(triton.__file__))" 2>/dev/null)/backends/nvidia/bin
ls -la $TB > /tmp/o/triton-bin.txt 2>&1; cat /tmp/o/triton-bin.txt
F=/tmp/gemv.fatbin; (cd /tmp && unzip -o -q /tmp/b/gpu/lib/roofline-cuda.jar dev/roofline/cuda/kernels/gemv.fatbin && cp dev/roofline/cuda/kernels/gemv.fatbin $F)
if [ -x $TB/cuobjdump ]; then
  $TB/cuobjdump --version > /tmp/o/cuobjdump.txt 2>&1
  $TB/cuobjdump -lelf -lptx $F >> /tmp/o/cuobjdump.txt 2>&1
  for a in sm_90a sm_100a sm_120a sm_121a; do $TB/cuobjdump -sass -arch $a $F > /tmp/o/sass-$a.txt 2>&1; echo "$a rc $? lines $(wc -l < /tmp/o/sass-$a.txt) LDL $(grep -c 'LDL' /tmp/o/sass-$a.txt) STL $(grep -c 'STL' /tmp/o/sass-$a.txt) HMMA $(grep -c HMMA /tmp/o/sass-$a.txt) OMMA $(grep -c 'OMMA\|QMMA\|UTCQMMA\|UTCOMMA' /tmp/o/sass-$a.txt)"; done | tee -a /tmp/o/cuobjdump.txt
  gzip -f /tmp/o/sass-*.txt
fi
save sass
timeout 150 dist/packed/gemv-sweep FP8 > /tmp/o/sweep-fp8.txt 2>&1; save "sweep fp8"; grep -v " h[1-4] " /tmp/o/sweep-fp8.txt
mkdir -p /tmp/o/validate
timeout 300 bash -c "source dist/packed/common.sh; roofline validate --out /tmp/o/validate" > /tmp/o/validate.txt 2>&1; echo "validate rc $?"; save validate; tail -25 /tmp/o/validate.txt
timeout 90 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.blas.MatmulIT --select-class dev.roofline.cuda.CudaIT --select-class dev.roofline.cuda.nccl.NcclIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted" /tmp/o/it.txt; grep -a -B2 -A6 "✘" /tmp/o/it.txt | head -30
timeout 60 dist/packed/gemv-sweep INT8 > /tmp/o/sweep-int8.txt 2>&1; save "sweep int8"
variant nonlazy dist/packed/roofline-cuda-nonlazy.jar
for v in gpu nonlazy; do
timeout 80 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline gemv-bench --rows 32 --no-layer --no-cublas --formats FP8_E4M3,INT8,NVFP4,MXFP4,INT4 --shape 28672x8192 --shape 8192x28672 --shape 8192x8192" > /tmp/o/gemv32-$v.txt 2>&1
save "m32 $v"; grep -E "^(28672|8192)x" /tmp/o/gemv32-$v.txt | awk -v v=$v '{print v,$1,$2,$3,$4,$5,$6}'
done
