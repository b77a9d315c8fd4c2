# call 98 (H100): issue 15, the merge launched programmatically as the split blocks end (2b402f4, new) against the build
# before it (6f016a1, base): DecodeKernelsIT and DenseDecoderIT on new, attention-bench FP16 batch 1/8/32 at
# 1k/8k/16k/32k (base, new, new, base), FP16 decode steps at batch 1 x 1k/8k/32k (base, new, new, base)
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call98.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT" > /tmp/o/it-raw.txt 2>&1
strip_ansi < /tmp/o/it-raw.txt > /tmp/o/it.txt; rm /tmp/o/it-raw.txt; grep -a -E "tests (successful|failed|aborted)|✘" /tmp/o/it.txt | head
save it
i=0; for v in base new new base; do i=$((i+1))
  timeout 80 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline attention-bench --kv fp16 --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-$i-$v.txt 2>&1
  save attention-$i-$v
done
for f in /tmp/o/attention-*.txt; do echo "== $f"; grep -a -E "^B=" $f | awk '{print $1,$2,$3,$5,$NF}' | tr '\n' ';'; echo; done
i=0; for v in base new new base; do i=$((i+1))
  timeout 90 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights FP16 --batch 1 --context 1024,8192,32768 --format markdown" > /tmp/o/decode-$i-$v.md 2>&1 || true
  save decode-$i-$v
done
for f in /tmp/o/decode-*.md; do echo "== $f"; grep -a 'us/step' $f | sed -E 's/^(Llama-3-8B )?//' | cut -c1-130; done
