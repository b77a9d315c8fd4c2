/**
 * GPU telemetry through NVML: power, energy, clocks, temperature and why clocks were held back
 * ({@link dev.roofline.nvml.NvmlMonitor}, {@link dev.roofline.nvml.PowerTracker}), and the energy meter roofline's
 * benchmarks find with {@link java.util.ServiceLoader} ({@link dev.roofline.nvml.NvmlPowerMeter}).
 *
 * <p>Run with {@code --enable-native-access=dev.roofline.bindings,dev.roofline.nvml}
 * (or {@code ALL-UNNAMED} on the class path).
 */
module dev.roofline.nvml {
    requires transitive dev.roofline.core;
    // transitive: NvmlException extends dev.roofline.bindings.error.NativeCallException, which users catch; the
    // generated and loader packages stay exported only to this module and roofline-cuda
    requires transitive dev.roofline.bindings;

    exports dev.roofline.nvml;

    provides dev.roofline.core.energy.PowerMeter with
            dev.roofline.nvml.NvmlPowerMeter;
}
