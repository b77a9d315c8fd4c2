# call 184: issue 15: the committed build with BF16 caches on the tensor cores (its bundle); base: 5633d5c's jar.
# DecodeKernelsIT, DenseDecoderIT, MoeDecoderIT; the BF16 attention tests on nolo (q's and the weights' lo parts
# dropped: the tests must fail); attention-bench bf16 and fp16; Llama-3-8B FP16 weights + BF16 cache base/new
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call184.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant base dist/packed/base-cuda.jar
variant nolo dist/packed/nolo-cuda.jar
bun() { [ $1 = new ] && echo /tmp/b/gpu || echo /tmp/b/$1; }
timeout 240 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.MoeDecoderIT" > /tmp/o/it.txt 2>&1
echo "IT: $(grep -a -E 'tests (successful|failed|aborted)' /tmp/o/it.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; save
ROOFLINE_BUNDLE=/tmp/b/nolo timeout 150 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*Bf16AndFp8.*'" > /tmp/o/it-nolo.txt 2>&1
echo "IT nolo: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-nolo.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"
grep -a -E "BF16 cache.*(✘|✔)" /tmp/o/it-nolo.txt | sed -r 's/\x1B\[[0-9;]*[mK]//g' | cut -c1-140; grep -a -m3 "||y - ref||" /tmp/o/it-nolo.txt | cut -c1-200; save
i=0; for v in new; do for kv in bf16 fp16; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 60 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-$kv-$i-$v.txt 2>&1
  echo "== $i $v $kv [$(( $(date +%s) - S )) s]"; grep -a -E "^(BF16 )?B=" /tmp/o/attention-$kv-$i-$v.txt | cut -c1-60
done; done; save
for bc in 1:8192 8:8192 1:32768; do b=${bc%%:*}; c=${bc##*:}; for v in base new new base; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 90 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --kv bf16 --batch $b --context $c" > /tmp/o/decode-$i-$v-b$b-c$c.txt 2>&1
  echo "$i $v b$b c$c: $(grep -a 'us/step' /tmp/o/decode-$i-$v-b$b-c$c.txt | cut -c1-100) [$(( $(date +%s) - S )) s]"
done; done; save
