# invoked as: bash dist/bench/call38.sh 38 (kind nvidia-h100-x1)
# call 38/39 (H100, H200): issue 20, the shipped 8-row rolling kernel (gemv_<format>_f16_m8_tiled_r3) against the plain
# _m8 tiled kernel in tiled_splitk.cu at up to 2 blocks an SM and 4 to 14 steps a warp, 2/4/8 rows; outputs checked
set +e
N=${1:-38}
mkdir -p /tmp/o; rm -f /tmp/o/*
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for s in 4096x4096 2096x8576 4096x8192 4096x11264 4096x12288 4096x13312 4096x14336 1024x14336; do for m in 2 4 8; do timeout 60 /tmp/tsk "" $s $m > /tmp/o/tsk-$s-m$m.txt 2>&1; done; done
tar -C /tmp -czf $OUT/call$N.tgz o
grep -h -E "^(INT4|NVFP4|MXFP4) .*(tiled m8|shipped m8 r3)" /tmp/o/tsk-*.txt | awk '{n=NF; if ($NF=="FAIL") n=NF-1; v=$4; for (i=5; i<=n-6; i++) v=v" "$i; printf "%s %s %s %s %s %s\n",$1,$2,$3,v,$(n-4),$(n-1)}' | grep "r3"
grep -h "FAIL\|all checks" /tmp/o/tsk-*.txt | sort | uniq -c
