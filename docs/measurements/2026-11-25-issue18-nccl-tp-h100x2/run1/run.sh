source dist/packed/common.sh
S=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > $OUT/device.txt; nvidia-smi topo -m >> $OUT/device.txt; cat $OUT/device.txt
python3 - > $OUT/nccl-where.txt 2>&1 <<'P'
import glob, os, torch
import nvidia.nccl as n
root = list(n.__path__)[0]
print("torch", torch.__version__, "nccl", torch.cuda.nccl.version(), "pkg", root)
for f in sorted(glob.glob(root + "/**", recursive=True)): print(f)
P
cat $OUT/nccl-where.txt | head -20
H=$(grep -m1 '/nccl.h$' $OUT/nccl-where.txt); [ -n "$H" ] && cp "$H" $OUT/nccl.h
(cd roofline-core/src/bench/python && timeout 120 python3 preset_parameters.py > $OUT/preset-parameters.csv 2> $OUT/preset-parameters.err; timeout 200 python3 preset_parameters.py --layer-flops 512 > $OUT/preset-layer-flops.csv 2> $OUT/preset-layer-flops.err)
echo "presets $(( $(date +%s) - S )) s"; cat $OUT/preset-parameters.csv | head -50; tail -5 $OUT/preset-parameters.err $OUT/preset-layer-flops.err
NCCL_NVLS_ENABLE=0 timeout 150 python3 -m torch.distributed.run --standalone --nproc_per_node=2 roofline-cuda/src/bench/python/nccl_torch.py > $OUT/nccl-torch.csv 2> $OUT/nccl-torch.err
echo "nccl $(( $(date +%s) - S )) s"; grep -E "^#|,(268435456|1073741824|8|1048576)," $OUT/nccl-torch.csv; tail -3 $OUT/nccl-torch.err
timeout 200 bash -c "source dist/packed/common.sh; junit --select-class dev.roofline.cuda.kernels.GemvKernelsIT --select-class dev.roofline.cuda.kernels.MoeKernelsIT --select-class dev.roofline.cuda.kernels.DecodeKernelsIT --select-class dev.roofline.cuda.decode.DenseDecoderIT --select-class dev.roofline.cuda.decode.MoeDecoderIT --select-class dev.roofline.cuda.decode.CheckpointWeightsIT" 2>&1 | strip_ansi > $OUT/it.txt
echo "it $(( $(date +%s) - S )) s"; grep -a "tests successful\|tests failed\|tests aborted" $OUT/it.txt; grep -a -B2 -A6 "✘" $OUT/it.txt | head -30
C=docs/measurements/2026-11-25-issue20-batched-gemv-h100/run6/calibration.json
timeout 150 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16,FP8_E4M3,NVFP4,INT4 --batch 1,8 --context 32768 --calibration $C --format markdown" > $OUT/decode-32k.md 2>&1
echo "32k $(( $(date +%s) - S )) s"; grep -a "held out\|calibration\|rror" $OUT/decode-32k.md | tail -12
timeout 100 bash -c "source dist/packed/common.sh; roofline decode llama-3-8b --weights FP16 --batch 32 --context 1024,8192 --calibration $C --format markdown" > $OUT/decode-b32.md 2>&1
echo "b32 $(( $(date +%s) - S )) s"; grep -a "held out\|rror" $OUT/decode-b32.md | tail -6
