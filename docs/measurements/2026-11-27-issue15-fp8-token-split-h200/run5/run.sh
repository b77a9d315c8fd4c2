# call 196: issue 15: FP16 and BF16 caches with the ring's tiles copied whole (rows past the chunk zero-filled) and the
# values' masks dropped (zf) against the bundle of fdd54f6 (cur); attention ITs on zf; the NaN-tail test on a
# mutation reading FP8 rows past each length (leak), which must fail
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call196.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
for v in zf leak; do variant $v dist/packed/$v-cuda.jar; done
bun() { [ $1 = cur ] && echo /tmp/b/gpu || echo /tmp/b/$1; }
ROOFLINE_BUNDLE=/tmp/b/leak timeout 100 bash -c "source dist/packed/common.sh; junit --select-method dev.roofline.cuda.kernels.DecodeKernelsIT#attentionNeverReadsPastEachLength" > /tmp/o/it-leak.txt 2>&1
echo "IT leak: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-leak.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a "✘" /tmp/o/it-leak.txt | head -12; save
ROOFLINE_BUNDLE=/tmp/b/zf timeout 200 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --include-methodname '.*[aA]ttention.*'" > /tmp/o/it-zf.txt 2>&1
echo "IT zf: $(grep -a -E 'tests (successful|failed)' /tmp/o/it-zf.txt | tr -s ' ' | tr '\n' ' ') [$(( $(date +%s) - S )) s]"; grep -a "✘" /tmp/o/it-zf.txt | head; save
i=0
bench() { local nm=$1 kv=$2 d=$3; shift 3
  for v in "$@"; do i=$((i+1))
    ROOFLINE_BUNDLE=$(bun $v) timeout 90 bash -c "source dist/packed/common.sh; roofline attention-bench --kv $kv --head-dim $d --batch 1,8,32 --context 1024,8192,16384,32768" > /tmp/o/attention-$nm-$i-$v.txt 2>&1
    echo "== $i $nm $v [$(( $(date +%s) - S )) s]"; grep -a -E "B=1 context" /tmp/o/attention-$nm-$i-$v.txt | grep -v TFLOPS | cut -c1-70
  done; save; }
bench fp16 fp16 128 cur zf zf cur
bench bf16 bf16 128 cur zf zf cur
bench fp16d64 fp16 64 cur zf
