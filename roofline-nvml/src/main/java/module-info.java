/** GPU telemetry through NVML: power, energy, clocks, temperature and why clocks were held back. */
module dev.roofline.nvml {
    requires dev.roofline.bindings;
    exports dev.roofline.nvml;
}
