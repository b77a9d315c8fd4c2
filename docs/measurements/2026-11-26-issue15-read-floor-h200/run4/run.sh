# call 73: issue 15, FP8 at one row on the 16-warp tensor-core kernel (gemv_fp8_f16_m8_w16) up to 6144 rows (T) or
# 4096 (T4), against the build (base): gemv-bench at the decoder's shapes, then decode steps with their read floors
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call73.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for v in T T4; do
  python3 -c "
import zipfile,sys
src,dst,cls=sys.argv[1:4]
with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst,'w',zipfile.ZIP_DEFLATED) as b:
    for i in a.infolist():
        data=open(cls,'rb').read() if i.filename=='dev/roofline/cuda/kernels/GemvKernels.class' else a.read(i.filename)
        b.writestr(i,data)
" /tmp/b/gpu/lib/roofline-cuda.jar /tmp/var-$v.jar dist/packed/cls/GemvKernels-$v.class
  variant $v /tmp/var-$v.jar
done; ln -sfn /tmp/b/gpu /tmp/b/base
for v in base T T4; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline gemv-bench --formats FP8_E4M3 --rows 1 --shape 6144x4096 --shape 4096x4096 --shape 4096x14336 --shape 28672x4096 --no-cublas --no-layer --markdown /tmp/o/gemv-$v.md" > /tmp/o/gemv-$v.txt 2>&1
done
save gemv; for v in base T T4; do echo "== $v"; grep -a -E "^\| [0-9]+x" /tmp/o/gemv-$v.md | cut -d'|' -f2,4,5,14,15,16; done
for r in 1 2; do for v in base T T4; do
  timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights FP8_E4M3 --batch 1,8 --context 1024,8192 --format markdown" > /tmp/o/decode-$v-$r.md 2>&1
  save decode-$v-$r
done; done
for r in 1 2; do for v in base T T4; do echo "== $v $r"; grep -a 'us/step' /tmp/o/decode-$v-$r.md | sed -E 's/^(Llama-3-8B )?//; s/ programmatic: ([0-9.]+) us\/step.*read floor ([0-9.]+) us.*/ \1 floor \2/'; grep -a -E "^\| (qkv|o_proj|down)" /tmp/o/decode-$v-$r.md | head -3 | cut -d'|' -f2,6,8,9 | tr '\n' ' '; echo; done; done
