# run 2 (H200, same bundle): cuobjdump of the fatbin's sm_100a / sm_120a native FP4 kernels; the attention's shortest
# chunk at batch 1 x 1k (experiment, -Droofline.exp.minChunk), A/B in one call
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call6.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
python3 -c "import zipfile; zipfile.ZipFile('/tmp/b/gpu/lib/roofline-cuda.jar').extract('dev/roofline/cuda/kernels/gemv.fatbin', '/tmp/fb')"
CO=/usr/local/cuda-13.0/bin/cuobjdump; $CO --version | tail -2 > /tmp/o/sass.txt
for a in sm_100a sm_120a sm_121a; do for k in gemv_nvfp4_w4a4_sm100_s1 gemv_nvfp4_w4a4_sm100_s4 gemv_nvfp4_w4a4_m1_w8; do
  echo "== $a $k" >> /tmp/o/sass.txt
  $CO -sass -arch $a -fun $k /tmp/fb/dev/roofline/cuda/kernels/gemv.fatbin > /tmp/o/$a-$k.sass 2>&1
  grep -oE "\b(UTC[A-Z]*MMA[A-Z0-9._]*|OMMA[A-Z0-9._]*|LDL[A-Z0-9.]*|STL[A-Z0-9.]*|BPT.TRAP[A-Z0-9.]*)" /tmp/o/$a-$k.sass | sort | uniq -c >> /tmp/o/sass.txt
  wc -l < /tmp/o/$a-$k.sass >> /tmp/o/sass.txt
done; done
save sass; cat /tmp/o/sass.txt
variant exp dist/packed/exp-cuda.jar
run() { echo "=== $1 round $r"; JAVA_TOOL_OPTIONS="-Droofline.exp.minChunk=$1" ROOFLINE_BUNDLE=/tmp/b/exp timeout 45 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1 --context 1024 --format markdown"; }
for r in 1 2; do for c in 32 64 128 256; do run $c >> /tmp/o/decode-ab.md 2>&1; save "$c $r"; done; done
grep -a "us/step\|^=== \|^| attention" /tmp/o/decode-ab.md | sed 's/ (measured ceilings).*floor/ ... floor/'
