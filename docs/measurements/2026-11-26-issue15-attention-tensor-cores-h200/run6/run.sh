# call 85: INT8 at one row, 4096 rows, K >= 4096 (o, down) on the 16-warp tensor-core kernel (I8) against the build (new:
# the CUDA-core kernel): gemv-bench at the decoder INT8 shapes, INT8 decode steps with their read floors
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call85.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
python3 -c "
import zipfile,sys
src,dst,cls=sys.argv[1:4]
with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst,'w',zipfile.ZIP_DEFLATED) as b:
    for i in a.infolist():
        data=open(cls,'rb').read() if i.filename=='dev/roofline/cuda/kernels/GemvKernels.class' else a.read(i.filename)
        b.writestr(i,data)
" /tmp/b/gpu/lib/roofline-cuda.jar /tmp/var-I8.jar dist/packed/cls/GemvKernels-I8.class
variant I8 /tmp/var-I8.jar; ln -sfn /tmp/b/gpu /tmp/b/new
for v in new I8; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline gemv-bench --formats INT8 --rows 1 --shape 6144x4096 --shape 4096x4096 --shape 4096x14336 --shape 28672x4096 --no-cublas --no-layer --markdown /tmp/o/gemv-$v.md" > /tmp/o/gemv-$v.txt 2>&1
done
save gemv; for v in new I8; do echo "== $v"; grep -a -E "^\| [0-9]+x" /tmp/o/gemv-$v.md | cut -d'|' -f2,4,5,14,15,16; done
for r in 1 2; do for v in new I8; do
  timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights INT8 --batch 1 --context 1024,8192 --format markdown" > /tmp/o/decode-$v-$r.md 2>&1
  save decode-$v-$r
done; done
for r in 1 2; do for v in new I8; do echo "== $v $r"; grep -a 'us/step' /tmp/o/decode-$v-$r.md | sed -E 's/^(Llama-3-8B )?//; s/ programmatic: ([0-9.]+) us\/step.*read floor ([0-9.]+) us.*/ \1 floor \2/'; done; done
