#!/usr/bin/env bash
# Builds every module and assembles dist/gpu/: a jlinked JDK 25 runtime, the module jars (core, bindings, cuda, nvml,
# quant) with their runtime dependencies (Jackson), the test jars of roofline-cuda and roofline-nvml, the JUnit console
# launcher and AssertJ, roofline-nvml's JMH benchmarks.jar, plus run-gpu-tests.sh and run-benchmarks.sh, so the GPU
# suite and the benchmarks run on a machine with a CUDA driver but no Java or Maven. The bundle must stay under 60 MiB.
#
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 scripts/gpu-bundle.sh
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIST=$ROOT/dist/gpu
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export JAVA_HOME PATH=$JAVA_HOME/bin:$PATH
CONSOLE_VERSION=${CONSOLE_VERSION:-1.14.1}   # JUnit Platform matching junit.version 5.14.1 in the parent POM
ASSERTJ_VERSION=${ASSERTJ_VERSION:-3.27.6}
MAX_MIB=60

"$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "2[5-9]' \
  || { echo "gpu-bundle: JAVA_HOME must be a JDK 25+, got $JAVA_HOME" >&2; exit 2; }

# everything is built in a copy of the working tree: the target/ folders that others build into here are left alone,
# and their builds cannot remove a jar from under this one
BUILD=$(mktemp -d)
trap 'rm -rf "$BUILD"' EXIT
tar -C "$ROOT" --exclude=./dist --exclude='*/target' --exclude=./target --exclude=./.git --exclude=./.gl --exclude=./.whl \
  -cf - . | tar -C "$BUILD" -xf -
cd "$BUILD"
MVN=(./mvnw -q -B ${MVN_OFFLINE:+-o} -Dmaven.javadoc.skip=true -Dmaven.source.skip=true)
rm -rf "$DIST"
mkdir -p "$DIST/lib" "$DIST/bench-c" "$DIST/jmh"
# one reactor: the library jars and test jars, and the third-party runtime dependencies (Jackson, for roofline-quant)
"${MVN[@]}" -pl roofline-nvml,roofline-quant -am package dependency:copy-dependencies -DskipTests \
  -DincludeScope=runtime -DexcludeGroupIds=dev.roofline -DoutputDirectory="$DIST/lib"
# a module's library jar, whatever its finalName: not the tests, sources, javadoc or benchmarks jar
main_jar() {
  local j
  j=$(ls "$1"/target/"$2"*.jar | grep -v -e '-tests\.jar$' -e '-sources\.jar$' -e '-javadoc\.jar$' -e 'benchmarks\.jar$' | head -1)
  [ -n "$j" ] || { echo "gpu-bundle: no jar for $2 under $1/target" >&2; exit 1; }
  echo "$j"
}
cp "$(main_jar roofline-core roofline-core)" "$DIST/lib/roofline-core.jar"
cp "$(main_jar bindings roofline-bindings)" "$DIST/lib/roofline-bindings.jar"
cp "$(main_jar roofline-cuda roofline-cuda)" "$DIST/lib/roofline-cuda.jar"
cp "$(main_jar roofline-nvml roofline-nvml)" "$DIST/lib/roofline-nvml.jar"
cp "$(main_jar roofline-quant roofline-quant)" "$DIST/lib/roofline-quant.jar"
cp roofline-cuda/target/roofline-cuda-*-tests.jar "$DIST/lib/roofline-cuda-tests.jar"
cp roofline-nvml/target/roofline-nvml-*-tests.jar "$DIST/lib/roofline-nvml-tests.jar"
cp roofline-cuda/src/bench/c/*.c "$DIST/bench-c/"

# JMH needs a clean build (the annotation processor must see every benchmark) with the jmh profile on each module it
# builds, so it comes after the jars above are copied out
"${MVN[@]}" -Pjmh -pl roofline-nvml -am clean package -DskipTests
cp roofline-nvml/target/benchmarks.jar "$DIST/jmh/benchmarks.jar"

for gav in org.junit.platform:junit-platform-console-standalone:$CONSOLE_VERSION org.assertj:assertj-core:$ASSERTJ_VERSION; do
  "${MVN[@]}" dependency:copy -Dartifact="$gav" -DoutputDirectory="$DIST/lib" -Dmdep.stripVersion=true
done

# java.xml: the console launcher writes its XML reports with it; jdk.zipfs: it scans the test jars as file systems;
# java.management: JMH reads the VM's arguments and forks with it
jlink --add-modules java.base,jdk.unsupported,java.logging,java.management,java.xml,jdk.zipfs \
  --strip-debug --no-man-pages --no-header-files --compress=zip-9 --output "$DIST/jre"
# the JDK's libjvm.so keeps its symbol table (~5 MiB); only crash reports' native frame names need it
if command -v strip >/dev/null; then
  find "$DIST/jre" -name '*.so' -exec strip --strip-unneeded {} +
fi

cat > "$DIST/run-gpu-tests.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the *IT and *Test classes of roofline-cuda and roofline-nvml; reports (XML) go to $1 (default ./reports).
# $2, $3: regular expressions over fully qualified class names, the classes to run (default every *IT and *Test) and
# those to leave out (default none), so that the suite can run in parts, e.g. '.*GemvKernelsIT' and then the rest:
#   run-gpu-tests.sh r1 '.*GemvKernelsIT'; run-gpu-tests.sh r2 '.*(IT|Test)' '.*GemvKernelsIT'
D=$(cd "$(dirname "$0")" && pwd)
REPORTS=${1:-$D/reports}
INCLUDE=${2:-'.*(IT|Test)$'}
EXCLUDE=()
[ -n "${3:-}" ] && EXCLUDE=(--exclude-classname "$3")
CP=$(ls "$D"/lib/*.jar | tr '\n' ':')
exec "$D/jre/bin/java" --enable-native-access=ALL-UNNAMED -cp "$CP" org.junit.platform.console.ConsoleLauncher execute \
  --scan-class-path "$D/lib/roofline-cuda-tests.jar:$D/lib/roofline-nvml-tests.jar" --include-classname "$INCLUDE" \
  "${EXCLUDE[@]}" --reports-dir "$REPORTS" --details=testfeed --disable-banner \
  --config=junit.jupiter.execution.timeout.default=120s \
  --config=junit.jupiter.execution.timeout.thread.mode.default=SEPARATE_THREAD
RUN

cat > "$DIST/run-benchmarks.sh" <<'RUN'
#!/usr/bin/env bash
# Short and bounded first, the long sweep last:
# 1. the checked layer's overhead over the raw binding for cudaGetDevice (class path), and the same call in a C loop
# 2. roofline-nvml's JMH benchmark of one sample (short: 2 warm-up and 3 measured iterations of 1 s, one fork)
# 3. roofline gemv-bench: the GEMV kernels beside cuBLASLt FP16, a same-bytes copy and the roofline, from the library
#    jars on the module path (text to $1/gemv-bench.txt, also CSV and Markdown)
# 4. roofline measure on the module path with roofline-nvml beside it, so its PowerMeter fills the energy columns:
#    ceilings, timing methods, sweep, predicted vs measured (CSV to $1/sweep.csv); nvidia-smi logs clocks, power and
#    clock-event reasons every 100 ms meanwhile (to $1/smi.csv)
D=$(cd "$(dirname "$0")" && pwd)
OUT_DIR=${1:-$D/out}
mkdir -p "$OUT_DIR"
J="$D/jre/bin/java"
# every module jar and its runtime dependencies (roofline-cuda reads checkpoints through roofline-quant, which uses
# Jackson); the test jars and the test libraries stay off the module path
MP=$(ls "$D"/lib/*.jar | grep -v -e '-tests\.jar$' -e junit -e assertj | tr '\n' ':')
# the dispatcher lives in roofline-core; the commands and the meter of the other modules join through ServiceLoader
ROOFLINE=("$J" --enable-native-access=dev.roofline.bindings,dev.roofline.cuda,dev.roofline.nvml -p "$MP"
  --add-modules dev.roofline.cuda,dev.roofline.nvml -m dev.roofline.core/dev.roofline.core.cli.Main)
echo "== cudaGetDevice overhead (Java)"
"$J" --enable-native-access=ALL-UNNAMED -cp "$MP:$D/lib/roofline-cuda-tests.jar" dev.roofline.cuda.CallOverheadBenchmark
echo "== cudaGetDevice overhead (C)"
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
if command -v nvcc >/dev/null || [ -x "$CUDA_HOME/bin/nvcc" ]; then
  NVCC=$(command -v nvcc || echo "$CUDA_HOME/bin/nvcc")
  BIN=${TMPDIR:-/tmp}/get_device_loop
  "$NVCC" -O2 -o "$BIN" "$D/bench-c/get_device_loop.c" && "$BIN"
else
  echo "nvcc not found: C baseline skipped"
fi
echo "== NVML sample overhead (JMH)"
"$J" -jar "$D/jmh/benchmarks.jar" NvmlSampleBenchmark -wi 2 -i 3 -w 1 -r 1 -f 1 \
  -jvmArgsAppend --enable-native-access=ALL-UNNAMED -rff "$OUT_DIR/jmh-nvml.csv" -rf csv
echo "== roofline gemv-bench (library jars only)"
"${ROOFLINE[@]}" gemv-bench --csv "$OUT_DIR/gemv-bench.csv" --markdown "$OUT_DIR/gemv-bench.md" 2>&1 | tee "$OUT_DIR/gemv-bench.txt"
echo "== roofline measure (with roofline-nvml's PowerMeter)"
SMI_PID=
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu,clocks_event_reasons.active \
    --format=csv -lms 100 >"$OUT_DIR/smi.csv" 2>&1 &
  SMI_PID=$!
fi
"${ROOFLINE[@]}" measure --csv "$OUT_DIR/sweep.csv" ${ROOFLINE_QUICK:+--quick}
RC=$?
[ -n "$SMI_PID" ] && kill "$SMI_PID"
exit $RC
RUN
cat > "$DIST/run-validate.sh" <<'RUN'
#!/usr/bin/env bash
# roofline validate with roofline-nvml beside it (joules per token): the registry's figures for this GPU beside their
# measurements, written to $1 (default ./out) as validation.md, validation.json and calibration.json; further
# arguments go to the command (--quick, --no-decode, --model NAME)
D=$(cd "$(dirname "$0")" && pwd)
OUT_DIR=${1:-$D/out}
shift || true
mkdir -p "$OUT_DIR"
MP=$(ls "$D"/lib/*.jar | grep -v -e '-tests\.jar$' -e junit -e assertj | tr '\n' ':')
exec "$D/jre/bin/java" --enable-native-access=dev.roofline.bindings,dev.roofline.cuda,dev.roofline.nvml -p "$MP" \
  --add-modules dev.roofline.cuda,dev.roofline.nvml -m dev.roofline.core/dev.roofline.core.cli.Main \
  validate --out "$OUT_DIR" "$@"
RUN
chmod +x "$DIST"/*.sh

# the bytes of its files, what a copy to the GPU machine carries (du -sm would count this filesystem's whole blocks)
SIZE_BYTES=$(du -sb "$DIST" | cut -f1)
SIZE_MIB=$(awk -v b="$SIZE_BYTES" 'BEGIN { printf "%.1f", b / 1048576 }')
echo "dist/gpu: ${SIZE_MIB} MiB"
if [ "$SIZE_BYTES" -ge $((MAX_MIB * 1048576)) ]; then
  echo "gpu-bundle: bundle is ${SIZE_MIB} MiB, over the ${MAX_MIB} MiB limit" >&2
  exit 1
fi
