# call 83: the one-launch attention (new: thread-block clusters of 16, splits merged in distributed shared memory)
# against the build before it (base): DecodeKernelsIT, then attention-bench at batch 1 and 8 in both
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call83.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
timeout 300 bash -c "source dist/packed/common.sh; junit --select-class=dev.roofline.cuda.kernels.DecodeKernelsIT" > /tmp/o/it-raw.txt 2>&1
strip_ansi < /tmp/o/it-raw.txt > /tmp/o/it.txt; rm /tmp/o/it-raw.txt; grep -E "tests (successful|failed)|✘" /tmp/o/it.txt | head -20
save it
for r in 1 2; do for v in base new; do
  timeout 90 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline attention-bench --kv fp16 --batch 1,8 --context 1024,4096,8192,16384,32768" > /tmp/o/attn-$v-$r.txt 2>&1
  save attn-$v-$r
done; done
for r in 1 2; do for v in base new; do echo "== $v $r"; grep -a -E "^B=" /tmp/o/attn-$v-$r.txt | awk '{print $1,$2,$3,$5,$NF}'; done; done
timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp8 --batch 1 --context 8192,16384,32768" > /tmp/o/attn-new-fp8.txt 2>&1
ROOFLINE_BUNDLE=/tmp/b/base timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv fp8 --batch 1 --context 8192,16384,32768" > /tmp/o/attn-base-fp8.txt 2>&1
for v in base new; do echo "== fp8 $v"; grep -a -E "^B=" /tmp/o/attn-$v-fp8.txt | awk '{print $1,$2,$3,$5,$NF}'; done
save done
