# call 87: issue 15 on 3ada973 (split pass on the tensor cores for FP16 caches, INT8 one row at 4096 rows on the
# tensor cores): GemvKernelsIT's tensor-core K-split cases, DecodeKernelsIT, DenseDecoderIT; an INT8 and an FP16 step
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call87.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 300 bash -c "source dist/packed/common.sh; junit '--select-method=dev.roofline.cuda.kernels.GemvKernelsIT#tensorCoreKSplits(dev.roofline.cuda.kernels.WeightFormat,int,int,int)' --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT" > /tmp/o/it-raw.txt 2>&1
strip_ansi < /tmp/o/it-raw.txt > /tmp/o/it.txt; rm /tmp/o/it-raw.txt; grep -a -E "tests (successful|failed|aborted)|✘" /tmp/o/it.txt | head; grep -a "INT8, F16 activations, M=1, N=4096" /tmp/o/it.txt
save it
timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights INT8,FP16 --batch 1 --context 1024 --format markdown" > /tmp/o/decode.md 2>&1
save decode; grep -a 'us/step' /tmp/o/decode.md | cut -c1-200
# the split rule with the tensor-core pass: chunks of at least 16 tokens (MC16; the build: 32) and waves sized for 4
# blocks an SM (W4; the build: 5), attention-bench against the build
for V in MC16 W4; do
python3 -c "
import zipfile,sys
src,dst,cls=sys.argv[1:4]
with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst,'w',zipfile.ZIP_DEFLATED) as b:
    for i in a.infolist():
        data=open(cls,'rb').read() if i.filename=='dev/roofline/cuda/kernels/DecodeKernels.class' else a.read(i.filename)
        b.writestr(i,data)
" /tmp/b/gpu/lib/roofline-cuda.jar /tmp/var-$V.jar dist/packed/cls/DecodeKernels-$V.class
variant $V /tmp/var-$V.jar; done; ln -sfn /tmp/b/gpu /tmp/b/new
for r in 1 2; do for v in new MC16 W4; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline attention-bench --kv fp16 --batch 1,8 --context 1024,2048,4096,8192,16384,32768" > /tmp/o/attention-$v-$r.txt 2>&1
done; done
save attention
for r in 1 2; do for v in new MC16 W4; do echo "== $v $r"; grep -a -E "^B=" /tmp/o/attention-$v-$r.txt | awk '{print $1,$2,$3,$5}' | tr '\n' ';'; echo; done; done
