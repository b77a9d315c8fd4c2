# the one class the split suite run left out: roofline-nvml's WrongLibraryTest
rm -rf /tmp/o; mkdir -p /tmp/o
source dist/packed/common.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > /tmp/o/device.txt; cat /tmp/o/device.txt
B=/tmp/b/gpu; CP=$(ls $B/lib/*.jar | tr '\n' ':')
$B/jre/bin/java --enable-native-access=ALL-UNNAMED -cp "$CP" org.junit.platform.console.ConsoleLauncher execute --details=testfeed --disable-banner --select-class dev.roofline.nvml.WrongLibraryTest > /tmp/o/suite3.txt 2>&1; echo "rc $?"
strip_ansi < /tmp/o/suite3.txt | tail -15
tar -C /tmp -czf $OUT/s4.tgz o
