set -x
source dist/packed/common.sh
S=$(date +%s)
R=dist/packed/roofline.sh
junit --select-class dev.roofline.cuda.decode.DenseDecoderIT 2>&1 | strip_ansi > "$OUT/it.txt"
echo "it $(( $(date +%s) - S )) s"; grep -a "tests successful\|tests failed" "$OUT/it.txt"; grep -a -A3 "✘" "$OUT/it.txt" | head -20
timeout 150 bash $R decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4 --batch 1 --context 1024 --format markdown > "$OUT/decode.md" 2>&1
echo "decode $(( $(date +%s) - S )) s"
timeout 150 python3 roofline-cuda/src/bench/python/decode_step_torch.py --batch 1 --context 1024 > "$OUT/torch-peer.txt" 2>&1
timeout 100 bash $R decode llama-3-8b --weights FP16 --batch 1 --context 1024 --format markdown > "$OUT/decode-after-torch.md" 2>&1
grep -a "us/step" "$OUT/decode.md" "$OUT/decode-after-torch.md" | cut -c1-200; tail -5 "$OUT/torch-peer.txt"
