# call 91: issue 15, the attention's merge with its splits' partials held in registers (new) against df97003 (base):
# DecodeKernelsIT and DenseDecoderIT, attention-bench at batch 1 and 8, FP16 decode steps
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call91.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar; ln -sfn /tmp/b/gpu /tmp/b/new
timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT" > /tmp/o/it-raw.txt 2>&1
strip_ansi < /tmp/o/it-raw.txt > /tmp/o/it.txt; rm /tmp/o/it-raw.txt; grep -a -E "tests (successful|failed|aborted)|✘" /tmp/o/it.txt | head
save it
for v in base new; do
  timeout 60 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline attention-bench --kv fp16 --batch 1,8 --context 1024,4096,8192,16384,32768" > /tmp/o/attention-$v.txt 2>&1
done
save attention
for v in base new; do echo "== $v"; grep -a -E "^B=" /tmp/o/attention-$v.txt | awk '{print $1,$2,$3,$5,$NF}' | tr '\n' ';'; echo; done
for v in base new; do
  timeout 120 bash -c "source dist/packed/common.sh; ROOFLINE_BUNDLE=/tmp/b/$v roofline decode llama-3-8b --weights FP16 --batch 1 --context 1024,8192,32768 --format markdown" > /tmp/o/decode-$v.md 2>&1
  save decode-$v
done
for v in base new; do echo "== $v"; grep -a 'us/step' /tmp/o/decode-$v.md | sed -E 's/^(Llama-3-8B )?//' | cut -c1-130; done
