# call 104 (H200): issue 15, attention_split's partial writes and 8-column dot products through one helper each (new)
# against 0a9613f's code (3afed11, base): DecodeKernelsIT and DenseDecoderIT on new; attention-bench FP16, BF16 and FP8
# caches at batch 1/8 x 1k/8k/32k (base, new, new, base)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call104.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
timeout 170 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT" > /tmp/o/it-raw.txt 2>&1
strip_ansi < /tmp/o/it-raw.txt > /tmp/o/it.txt; rm /tmp/o/it-raw.txt; grep -a -E "tests (successful|failed|aborted)|✘" /tmp/o/it.txt | head
save it
i=0; for v in base new new base; do i=$((i+1))
  for kv in fp16 bf16 fp8; do
    timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline attention-bench --kv $kv --batch 1,8 --context 1024,8192,32768" > /tmp/o/attention-$i-$v-$kv.txt 2>&1
  done
  save attention-$i-$v
done
for f in /tmp/o/attention-*.txt; do echo "== $f"; grep -a -E "^B=" $f | awk '{print $1,$2,$3,$5,$NF}' | tr '\n' ';'; echo; done
