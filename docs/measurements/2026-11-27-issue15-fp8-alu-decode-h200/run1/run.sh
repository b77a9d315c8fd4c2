# call 185: issue 15: the FP8 CUDA-core GEMV's decode by integer ops (E4M3 bits moved into FP16 bits of 2^-8 times the
# value, the 2^8 folded into the row scale; alt) against the shipped cvt decode (ship): the gate/up probe (probe_fp8.cu,
# both builds), then Llama-3-8B FP8 steps at batch 1 x 1k and 8k, ship (the bundle) alt alt ship
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { tar -C /tmp -czf $OUT/call185.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
variant alt dist/packed/alt-cuda.jar
for v in ship alt; do xz -dc dist/packed/fp8v-$v.xz > /tmp/fp8v-$v; chmod +x /tmp/fp8v-$v; done
for v in ship alt; do timeout 150 /tmp/fp8v-$v > /tmp/o/probe-$v.txt 2>&1; echo "probe $v rc $? [$(( $(date +%s) - S )) s]"; grep -a -E "^(shape|read |shipped|w4u1r4|w2u2r2|db_w4u1r2|tc_w16)" /tmp/o/probe-$v.txt; done; save
bun() { [ $1 = ship ] && echo /tmp/b/gpu || echo /tmp/b/$1; }
i=0; for c in 1024 8192; do for v in ship alt alt ship; do i=$((i+1))
  ROOFLINE_BUNDLE=$(bun $v) timeout 90 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP8_E4M3 --batch 1 --context $c" > /tmp/o/decode-$i-$v-c$c.txt 2>&1
  echo "$i $v c$c: $(grep -a 'us/step' /tmp/o/decode-$i-$v-c$c.txt | cut -c1-100) [$(( $(date +%s) - S )) s]"
  grep -a -E "^(gate_up|down|o_proj|qkv)" /tmp/o/decode-$i-$v-c$c.txt | tr -s ' ' | head -4
done; done; save
