#!/usr/bin/env bash
# GEMV kernels on a GPU machine, from the bundle scripts/gpu-bundle.sh writes (dist/gpu): SASS check (when cuobjdump
# is there), the correctness IT, then the bandwidth / cuBLAS / roofline benchmark. Logs and reports go to $1.
#   roofline-cuda/src/bench/gemv/run-gemv-bench.sh "$OUT"
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../../.." && pwd)
D=${GPU_BUNDLE:-$ROOT/dist/gpu}
OUT_DIR=${1:-$ROOT/target/gemv}
mkdir -p "$OUT_DIR"
CP=$(ls "$D"/lib/*.jar | tr '\n' ':')
J=("$D/jre/bin/java" --enable-native-access=ALL-UNNAMED -cp "$CP")
FATBIN=$ROOT/roofline-cuda/src/main/resources/dev/roofline/cuda/kernels/gemv.fatbin
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv
CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
if [ -x "$CUOBJDUMP" ]; then
  "$CUOBJDUMP" -sass -arch sm_90a "$FATBIN" > "$OUT_DIR/gemv-sm90a.sass" 2>&1
  echo "== SASS sm_90a: per kernel, 16-byte global loads / local-memory ops / shared loads / tensor-core mma / instructions"
  awk '/Function :/{f=$3} /LDG.E.128|LDG.E.ENL2.128|LDG.E.NA.128|LDG.*128/{g[f]++} /LDL|STL/{l[f]++} /LDS/{s[f]++} /LDGSTS/{a[f]++} /HMMA/{h[f]++} /^ +\/\*[0-9a-f]+\*\//{n[f]++} END{for(k in n) printf "%-24s LDG128=%d LDL/STL=%d LDS=%d LDGSTS=%d HMMA=%d instr=%d\n", k, g[k]+0, l[k]+0, s[k]+0, a[k]+0, h[k]+0, n[k]+0}' \
    "$OUT_DIR/gemv-sm90a.sass" | sort | grep -E "_m1 |_m1_w" | head -30
fi
echo "== correctness"
timeout 300 "${J[@]}" org.junit.platform.console.ConsoleLauncher execute \
  --select-class dev.roofline.cuda.kernels.GemvKernelsIT --select-class dev.roofline.cuda.kernels.GemvShapeTest \
  --reports-dir "$OUT_DIR/reports" --details=tree --disable-banner 2>&1 | tee "$OUT_DIR/it.log" | grep -vE "✔" | tail -60
echo "== benchmark"
# from the library jars alone, on the module path: the benchmark is API (dev.roofline.cuda.bench), not test code
MP="$D/lib/roofline-core.jar:$D/lib/roofline-bindings.jar:$D/lib/roofline-cuda.jar"
timeout 400 "$D/jre/bin/java" --enable-native-access=dev.roofline.bindings,dev.roofline.cuda -p "$MP" \
  -m dev.roofline.cuda/dev.roofline.cuda.bench.GemvBenchmark 2>&1 | tee "$OUT_DIR/bench.log"
