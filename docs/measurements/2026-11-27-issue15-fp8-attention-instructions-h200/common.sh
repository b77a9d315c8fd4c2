# sourced by the run scripts on the GPU machine: unpacks the bundle once into /tmp/b/gpu, defines junit and roofline
set +e
if [ ! -x /tmp/b/gpu/jre/bin/java ]; then mkdir -p /tmp/b && xz -dc dist/packed/gpu.tar.xz | tar -C /tmp/b -xf -; fi
variant() { # variant NAME JAR: the bundle with roofline-cuda.jar replaced, in /tmp/b/NAME
  mkdir -p /tmp/b/$1 && cp -r /tmp/b/gpu/jre /tmp/b/gpu/lib /tmp/b/$1/ && cp "$2" /tmp/b/$1/lib/roofline-cuda.jar
}
strip_ansi() { sed -r 's/\x1B\[[0-9;]*[mK]//g'; }
junit() {
  local B=${ROOFLINE_BUNDLE:-/tmp/b/gpu}
  local CP=$(ls $B/lib/*.jar | tr '\n' ':')
  $B/jre/bin/java --enable-native-access=ALL-UNNAMED -cp "$CP" org.junit.platform.console.ConsoleLauncher execute \
    --details=tree --disable-banner "$@"
}
roofline() {
  local B=${ROOFLINE_BUNDLE:-/tmp/b/gpu}
  local MP=$(ls $B/lib/*.jar | grep -v -e '-tests\.jar$' -e junit -e assertj | tr '\n' ':')
  $B/jre/bin/java --enable-native-access=dev.roofline.bindings,dev.roofline.cuda,dev.roofline.nvml -p "$MP" \
    --add-modules dev.roofline.cuda,dev.roofline.nvml -m dev.roofline.core/dev.roofline.core.cli.Main "$@"
}
patchjar() { # patchjar OUT BASE ZIP: BASE with the entries of ZIP replaced (python3's zipfile)
  python3 - "$1" "$2" "$3" <<'PY'
import sys, zipfile
out, base, patch = sys.argv[1:4]
p = zipfile.ZipFile(patch)
names = set(p.namelist())
with zipfile.ZipFile(base) as b, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as o:
    for i in b.infolist():
        o.writestr(i, p.read(i.filename) if i.filename in names else b.read(i.filename))
PY
}
