# call 3 (H200): issue 20's pre-arranged 4-bit layout variants (w4_layout.cu) against the shipped tensor-core kernels
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call3.tgz o; }
export PATH=/usr/local/cuda-13.0/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
nvcc --version | tail -2 > /tmp/o/nvcc.txt
nvcc -std=c++17 -O3 -arch=sm_90a -Xptxas -v -o /tmp/w4 roofline-cuda/src/bench/gemv/w4_layout.cu > /tmp/o/build.txt 2>&1; echo build rc=$?
cuobjdump -sass /tmp/w4 > /tmp/o/w4.sass 2>&1
for f in $(grep -o "Function : [a-zA-Z0-9_]*" /tmp/o/w4.sass | awk '{print $3}' | grep -v "^_Z" ); do
  echo "$f $(awk -v f=$f '/Function : /{p=($3==f)} p' /tmp/o/w4.sass | grep -cE ' (LOP3|PRMT|SHF|IMAD\.SHL|IMAD\.HI|HMUL2|HFMA2|HADD2|HMMA|LDG|LOP)[. ]')"; done > /tmp/o/counts.txt 2>&1
for k in w4_nvfp4_m1_t1_u4 w4_int4_m1_t1_u4; do for op in LOP3 PRMT SHF IMAD.SHL IMAD.HI HMUL2 HFMA2 HADD2 HMMA LDG; do echo "$k $op $(awk -v f=$k '/Function : /{p=($3==f)} p' /tmp/o/w4.sass | grep -c " $op")"; done; done > /tmp/o/ops.txt
save build; cat /tmp/o/ops.txt | head -30
timeout 200 /tmp/w4 > /tmp/o/w4.txt 2>&1; echo w4 rc=$?
save run; cat /tmp/o/w4.txt | head -120
