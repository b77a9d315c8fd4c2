# call 72: issue 15, per-operator read floors in the decode profile (four formats, batch 1 x 1k and 8 x 1k); the
# decoder and kernel ITs on the fatbin with stream.cu; Nsight Compute durations of the attention's two kernels at
# batch 1 x 8k and 16k
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call72.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8 --context 1024 --format markdown" > /tmp/o/decode.md 2>&1
save decode; grep -a -E "^### |^\| (qkv|o_proj|gate|down|attention|step|sum)" /tmp/o/decode.md | head -60
timeout 240 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.StreamReadIT --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT" 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a -E "tests (successful|failed|aborted)" /tmp/o/it.txt
export PATH=$PATH:/usr/local/cuda/bin
for c in 8192 16384; do
  B=/tmp/b/gpu; MP=$(ls $B/lib/*.jar | grep -v -e '-tests\.jar$' -e junit -e assertj | tr '\n' ':')
  timeout 90 ncu --target-processes all -k regex:decode_attention --launch-skip 40 --launch-count 4 --metrics gpu__time_duration.sum $B/jre/bin/java --enable-native-access=dev.roofline.bindings,dev.roofline.cuda,dev.roofline.nvml -p "$MP" --add-modules dev.roofline.cuda,dev.roofline.nvml -m dev.roofline.core/dev.roofline.core.cli.Main attention-bench --batch 1 --context $c > /tmp/o/ncu-attention-1x$c.txt 2>&1
  echo ncu $c rc=$?
done
save ncu; grep -a -E "decode_attention|gpu__time_duration" /tmp/o/ncu-attention-*.txt | head -20
