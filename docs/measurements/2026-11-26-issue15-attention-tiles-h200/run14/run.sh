# run 14: ITs on HEAD's main jar; FP16 one-row GEMV variants (chunks x rows a warp) per product size in the step
source dist/packed/common.sh
S=$(date +%s); mkdir -p /tmp/o; rm -f /tmp/o/*
save() { echo "$1 $(( $(date +%s) - S )) s"; tar -C /tmp -czf $OUT/call1.tgz o; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt
variant head dist/packed/head-cuda.jar
variant exp dist/packed/exp-cuda.jar
ROOFLINE_BUNDLE=/tmp/b/head timeout 150 bash -c 'source dist/packed/common.sh; junit -c dev.roofline.cuda.kernels.DecodeKernelsIT -c dev.roofline.cuda.decode.DenseDecoderIT' 2>&1 | strip_ansi > /tmp/o/it.txt
save it; grep -a "tests successful\|tests failed\|tests aborted\|tests skipped" /tmp/o/it.txt
D="decode llama-3-8b --weights FP16 --batch 1 --context 1024 --format markdown"
run() { echo "=== variant $1 round $r"; if [ "$1" = head ]; then ROOFLINE_BUNDLE=/tmp/b/head timeout 45 bash -c "source dist/packed/common.sh; roofline $D"; else JAVA_TOOL_OPTIONS="-Droofline.exp.m1=$1" ROOFLINE_BUNDLE=/tmp/b/exp timeout 45 bash -c "source dist/packed/common.sh; roofline $D"; fi; }
for r in 1 2; do
  for v in head 6144:x32 6144:x41 6144:x21 6144:x14 6144:x81 4096:x41 4096:x21; do run $v >> /tmp/o/decode-ab.md 2>&1; save "$v $r"; done
done
grep -a "us/step\|=== variant" /tmp/o/decode-ab.md | sed 's/ (measured ceilings).*floor/ ... floor/'
grep -a "=== variant\|qkv_proj\|o_proj\|down_proj" /tmp/o/decode-ab.md | head -60
