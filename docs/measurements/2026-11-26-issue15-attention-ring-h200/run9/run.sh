# run 9: run6/probe.cu with run8/probe.diff (SLOTS unset) built twice from 6f016a1 decode.cu, once with run9/variants.diff (-DPROBE_LATE: the split pass waits at its start and lets the next kernel launch at each block end) as "late"; "early merge" is the merge launched programmatically
set -e
cd dist/probe6
tar -xJf bins.tar.xz
nvidia-smi --query-gpu=name --format=csv,noheader
for r in 1 2; do for v in kept late; do echo "== $v round $r"; ./$v f16; done; done 2>&1 | tee $OUT/output.txt
