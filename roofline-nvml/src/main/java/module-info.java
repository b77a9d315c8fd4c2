/**
 * GPU telemetry through NVML: power, energy, clocks, temperature and why clocks were held back
 * ({@link dev.roofline.nvml.NvmlMonitor}, {@link dev.roofline.nvml.PowerTracker}).
 *
 * <p>Run with {@code --enable-native-access=dev.roofline.bindings,dev.roofline.cuda,dev.roofline.nvml}
 * (or {@code ALL-UNNAMED} on the class path).
 */
module dev.roofline.nvml {
    requires dev.roofline.bindings;
    requires dev.roofline.cuda;
    exports dev.roofline.nvml;
    provides dev.roofline.cuda.bench.PowerMeter with dev.roofline.nvml.NvmlPowerMeter;
}
