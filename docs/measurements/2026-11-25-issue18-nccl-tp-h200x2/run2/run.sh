# call 5 (2 GPUs): tp-decode TP2 with the row-scaled H200 calibration (issue 15's), NCCL fits merged into it; and
# where a disassembler that knows sm_121a might be on this machine
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call5.tgz o; }
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv > /tmp/o/device.txt; nvidia-smi topo -m >> /tmp/o/device.txt
(find / -xdev \( -name 'cuobjdump*' -o -name 'nvdisasm*' \) -type f 2>/dev/null | head -20; for f in $(find / -xdev \( -name 'cuobjdump' -o -name 'nvdisasm' \) -type f 2>/dev/null | head -6); do echo "== $f"; $f --version 2>&1 | tail -2; done) > /tmp/o/disassemblers.txt; cat /tmp/o/disassemblers.txt
cp docs/measurements/2026-11-25-issue15-row-scaling-h200/calibration.json /tmp/o/calibration.json
timeout 150 bash -c "source dist/packed/common.sh; roofline nccl-bench --gpus 2 --calibration /tmp/o/calibration.json" > /tmp/o/nccl-bench.txt 2> /tmp/o/nccl-bench.err
save bench; grep -E " 268435456 |added" /tmp/o/nccl-bench.txt; tail -2 /tmp/o/nccl-bench.err
timeout 240 bash -c "source dist/packed/common.sh; roofline tp-decode llama-3-8b --gpus 2 --weights FP16,FP8_E4M3,NVFP4 --batch 1,8,16 --context 1024 --calibration /tmp/o/calibration.json --format markdown" > /tmp/o/tp-decode-8b.md 2> /tmp/o/tp-decode-8b.err
save tp8b; grep -a "^| Llama" /tmp/o/tp-decode-8b.md; tail -3 /tmp/o/tp-decode-8b.err
