# call 14 (H200): RoPE + KV append in the q/k/v product's epilogue (decode_qkv_rope_append_*): ITs, then the FP16
# batch 1 step fused vs unfused (-Droofline.experiment.unfusedRope) in one call
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call14.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
timeout 260 bash -c 'source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.DecodeKernelsIT -c dev.roofline.cuda.decode.DenseDecoderIT -c dev.roofline.cuda.decode.MoeDecoderIT -c dev.roofline.cuda.decode.HostWeightsIT -c dev.roofline.cuda.decode.CheckpointWeightsIT' 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -E "tests (successful|failed|aborted)|MethodSource|✘" /tmp/o/it.txt | head -30
run() { echo "=== $1 ctx $2 round $r"; JAVA_TOOL_OPTIONS="$3" timeout 70 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 1 --context $2 --format markdown"; }
for r in 1 2; do
  run fused 1024 "" >> /tmp/o/decode-ab.md 2>&1; save "fused $r"
  run unfused 1024 "-Droofline.experiment.unfusedRope=true" >> /tmp/o/decode-ab.md 2>&1; save "unfused $r"
done
r=1; run fused 32768 "" >> /tmp/o/decode-ab.md 2>&1; run unfused 32768 "-Droofline.experiment.unfusedRope=true" >> /tmp/o/decode-ab.md 2>&1; save 32k
grep -a "us/step\|^=== \|^| qkv_proj\|^| rope" /tmp/o/decode-ab.md | sed 's/ (measured ceilings).*floor/ ... floor/'
timeout 200 bash -c 'source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.GemvKernelsIT' 2>&1 | strip_ansi > /tmp/o/it-gemv.txt
save gemv; grep -E "tests (successful|failed|aborted)|✘" /tmp/o/it-gemv.txt | head
