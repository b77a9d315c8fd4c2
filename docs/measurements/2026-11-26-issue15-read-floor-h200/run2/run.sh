# call 71: issue 15, the attention at batch 1: the merge launched programmatically where the split pass is at most
# one wave (M), half-wave splits where one wave holds them (H), both (MH), against the build (base); attention alone,
# then decode steps
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call71.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for v in M H MH; do
  python3 -c "
import zipfile,sys
src,dst,cls=sys.argv[1:4]
with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst,'w',zipfile.ZIP_DEFLATED) as b:
    for i in a.infolist():
        data=open(cls,'rb').read() if i.filename=='dev/roofline/cuda/kernels/DecodeKernels.class' else a.read(i.filename)
        b.writestr(i,data)
" /tmp/b/gpu/lib/roofline-cuda.jar /tmp/var-$v.jar dist/packed/cls/DecodeKernels-$v.class
  variant $v /tmp/var-$v.jar; unzip -p /tmp/b/$v/lib/roofline-cuda.jar dev/roofline/cuda/kernels/DecodeKernels.class | md5sum
done; ln -sfn /tmp/b/gpu /tmp/b/base
for r in 1 2; do for v in base M H MH; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline attention-bench --kv fp16 --batch 1,8 --context 4096,8192,16384,32768" > /tmp/o/attention-$v-$r.txt 2>&1
done; done
save attention
for v in base M H MH; do echo "== $v"; grep -a "context=" /tmp/o/attention-$v-1.txt | tail -8 | awk '{print $1, $2, $3, $10}'; done
for v in base M H MH; do
  timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights FP16,FP8_E4M3 --batch 1,8 --context 1024,8192,32768 --format markdown" > /tmp/o/decode-$v.md 2>&1
  save decode-$v
done
for v in base M H MH; do echo "== $v"; grep -a 'us/step' /tmp/o/decode-$v.md | sed -E 's/^(Llama-3-8B )?//; s/ programmatic: ([0-9.]+) us\/step.*/ \1/' ; done
