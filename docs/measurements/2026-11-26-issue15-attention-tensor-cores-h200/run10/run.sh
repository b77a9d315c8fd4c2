# call 89: groups of 8 query heads per KV head (Llama-3-70B's 64 on 8) with FP16 caches, whose tensor-core split pass
# fits 5 blocks an SM (89 registers, 41 KiB): waves sized for 5 (G8W5) against the build's 3, attention-bench
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call89.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
python3 -c "
import zipfile,sys
src,dst,cls=sys.argv[1:4]
with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst,'w',zipfile.ZIP_DEFLATED) as b:
    for i in a.infolist():
        data=open(cls,'rb').read() if i.filename=='dev/roofline/cuda/kernels/DecodeKernels.class' else a.read(i.filename)
        b.writestr(i,data)
" /tmp/b/gpu/lib/roofline-cuda.jar /tmp/var-G8W5.jar dist/packed/cls/DecodeKernels-G8W5.class
variant G8W5 /tmp/var-G8W5.jar; ln -sfn /tmp/b/gpu /tmp/b/new
for r in 1 2; do for v in new G8W5; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline attention-bench --kv fp16 --heads 64 --kv-heads 8 --batch 1,8 --context 1024,4096,8192,16384,32768" > /tmp/o/attention-$v-$r.txt 2>&1
done; done
save attention
for r in 1 2; do for v in new G8W5; do echo "== $v $r"; grep -a -E "^B=" /tmp/o/attention-$v-$r.txt | awk '{print $1,$2,$3,$5}' | tr '\n' ';'; echo; done; done
