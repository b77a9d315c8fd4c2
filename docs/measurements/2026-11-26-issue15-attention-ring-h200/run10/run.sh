# call 96: issue 15, the attention's merge launched programmatically as each split block ends (new) against 6f016a1
# (base, the merge in stream order): DecodeKernelsIT, DenseDecoderIT, MoeDecoderIT; attention-bench; FP16 steps at
# batch 1 x 1k/8k/32k and FP8 steps at batch 8/16 x 1k, each build twice where time allows
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call96.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
timeout 120 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.MoeDecoderIT" > /tmp/o/it-raw.txt 2>&1
strip_ansi < /tmp/o/it-raw.txt > /tmp/o/it.txt; rm /tmp/o/it-raw.txt; grep -a -E "tests (successful|failed|aborted)|✘" /tmp/o/it.txt | head
save it
for v in base new; do
  timeout 70 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline attention-bench --kv fp16 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-$v.txt 2>&1
  save attention-$v
done
for v in base new; do echo "== $v"; grep -a -E "^B=" /tmp/o/attention-$v.txt | awk '{print $1,$2,$3,$5}' | tr '\n' ';'; echo; done
for v in base new; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights FP16 --batch 1 --context 1024,8192,32768 --format markdown" >> /tmp/o/decode-$v.md 2>&1
  save decode-fp16-$v
done
for v in base new; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights FP8_E4M3 --batch 8,16 --context 1024 --format markdown" >> /tmp/o/decode-$v.md 2>&1
  save decode-fp8-$v
done
for v in new base; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights FP16 --batch 1 --context 1024,8192,32768 --format markdown" >> /tmp/o/decode-$v.md 2>&1
  save decode-fp16-$v-2
done
for v in base new; do echo "== $v"; grep -a 'us/step' /tmp/o/decode-$v.md | sed -E 's/^(Llama-3-8B )?//' | cut -c1-110; done
for v in base new; do
  timeout 45 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline attention-bench --kv bf16,fp8 --batch 1,8 --context 8192,32768" > /tmp/o/attention-other-$v.txt 2>&1
  save attention-other-$v
done
