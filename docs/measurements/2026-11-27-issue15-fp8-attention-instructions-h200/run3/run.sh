# call 3: g1 (the upper E4M3 pair converted from the register's upper half in the FP8 GEMV decode, the 8-bit
# tensor-core step and the FP8 attention) and h4 (g1 + the FP8 attention's hoisted s_p addresses and XOR ldmatrix
# addresses) against base: SASS, attention-bench, gemv-bench FP8, Llama-3-8B FP8 steps, ITs
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call3.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base /tmp/b/gpu/lib/roofline-cuda.jar; for v in g1 h4; do variant $v dist/packed/$v-cuda.jar; done
for v in base g1 h4; do
  python3 -c "import zipfile,sys; open('/tmp/o/$v.fatbin','wb').write(zipfile.ZipFile('/tmp/b/$v/lib/roofline-cuda.jar').read('dev/roofline/cuda/kernels/gemv.fatbin'))"
  cuobjdump -sass -arch sm_90a /tmp/o/$v.fatbin > /tmp/sass-$v.txt 2>&1; rm /tmp/o/$v.fatbin
  awk '/Function :/{f=$3} /F2FP.F16.E4M3/{c[f]++} /SHF.R.U32.HI.*0x10,/{h[f]++} /^ *\/\*[0-9a-f]+\*\//{n[f]++} END{for(k in c) print k, "F2FP", c[k], "SHF16", h[k]+0, "insts", n[k]}' /tmp/sass-$v.txt | sort > /tmp/o/sass-$v-e4m3.txt
  gzip -c /tmp/sass-$v.txt > /tmp/o/sass-$v.txt.gz
done; save
i=0
bench() { # bench NAME KV DIM BATCHES CONTEXTS VARIANTS...
  local nm=$1 kv=$2 d=$3 bs=$4 cs=$5; shift 5
  for v in "$@"; do i=$((i+1))
    ROOFLINE_BUNDLE=/tmp/b/$v timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --head-dim $d --batch $bs --context $cs" > /tmp/o/attention-$nm-$i-$v.txt 2>&1
    echo "== $i $nm $v [$(( $(date +%s) - S )) s]"; grep -a -E "^(FP|BF)" /tmp/o/attention-$nm-$i-$v.txt | cut -c1-70
  done; save
}
bench fp8 fp8 128 1,8,32 1024,8192,16384,32768 base g1 h4 h4 g1 base
for v in base g1 g1 base; do i=$((i+1))
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 120 bash -c "source dist/packed/common.sh; roofline gemv-bench --formats FP8_E4M3 --rows 1,16 --shape 6144x4096 --shape 4096x4096 --shape 28672x4096 --shape 4096x14336 --shape 128256x4096 --no-cublas --no-layer" > /tmp/o/gemv-$i-$v.txt 2>&1
  echo "== $i gemv $v [$(( $(date +%s) - S )) s]"; grep -a -E "^\| [0-9]+x[0-9]+ \| (1|16) \|" /tmp/o/gemv-$i-$v.txt | head -12 | cut -c1-60
done; save
for v in base g1 h4 h4 g1 base; do i=$((i+1))
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 120 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3 --batch 1 --context 1024" > /tmp/o/decode-$i-$v-fp8w.txt 2>&1
  echo "$i $v fp8w 1x1k: $(grep -a 'us/step' /tmp/o/decode-$i-$v-fp8w.txt | cut -c1-100) [$(( $(date +%s) - S )) s]"
  ROOFLINE_BUNDLE=/tmp/b/$v timeout 120 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --kv fp8 --batch 1,8 --context 8192" > /tmp/o/decode-$i-$v-fp16w.txt 2>&1
  echo "$i $v fp16w fp8kv: $(grep -a 'us/step' /tmp/o/decode-$i-$v-fp16w.txt | cut -c1-100 | tr '\n' ' ') [$(( $(date +%s) - S )) s]"
done; save
ROOFLINE_BUNDLE=/tmp/b/h4 timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-h4-att.txt 2>&1
echo "IT h4 attention: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-h4-att.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘" /tmp/o/it-h4-att.txt | head; save
ROOFLINE_BUNDLE=/tmp/b/g1 timeout 200 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT" > /tmp/o/it-g1-gemv.txt 2>&1
echo "IT g1 gemv: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-g1-gemv.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a -E "✘" /tmp/o/it-g1-gemv.txt | head; save
echo "done [$(( $(date +%s) - S )) s]"
