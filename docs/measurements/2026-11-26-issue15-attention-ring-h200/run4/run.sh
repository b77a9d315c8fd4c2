# call 93: issue 15, the attention's split pass with a 3-tile ring and padded logit rows on the tensor cores (new)
# against cd085e6 (base): DecodeKernelsIT and DenseDecoderIT, attention-bench (FP16 batch 1/8/32, BF16/FP8 batch 1/8),
# FP16 decode steps at batch 1 x 1k/8k/32k, each build twice
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call93.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT" > /tmp/o/it-raw.txt 2>&1
strip_ansi < /tmp/o/it-raw.txt > /tmp/o/it.txt; rm /tmp/o/it-raw.txt; grep -a -E "tests (successful|failed|aborted)|✘" /tmp/o/it.txt | head
save it
for v in base new; do
  timeout 80 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline attention-bench --kv fp16 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-$v.txt 2>&1
  save attention-$v
done
for v in base new; do echo "== $v"; grep -a -E "^B=" /tmp/o/attention-$v.txt | awk '{print $1,$2,$3,$5,$NF}' | tr '\n' ';'; echo; done
for v in base new; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline attention-bench --kv bf16,fp8 --batch 1,8 --context 8192,32768" > /tmp/o/attention-other-$v.txt 2>&1
  save attention-other-$v
done
for v in base new new base; do
  timeout 100 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights FP16 --batch 1 --context 1024,8192,32768 --format markdown" > /tmp/o/decode-$v-b1.md 2>&1 || true
  cat /tmp/o/decode-$v-b1.md >> /tmp/o/decode-$v.md; rm /tmp/o/decode-$v-b1.md
  save decode-$v
done
for v in base new; do echo "== $v"; grep -a 'us/step' /tmp/o/decode-$v.md | sed -E 's/^(Llama-3-8B )?//' | cut -c1-130; done
