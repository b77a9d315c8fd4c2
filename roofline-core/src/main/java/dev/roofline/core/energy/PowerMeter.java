package dev.roofline.core.energy;

/**
 * Measures the energy a GPU draws while a benchmark runs an operation back to back. roofline-core defines the service,
 * roofline-cuda's benchmarks use it and roofline-nvml implements it
 * ({@code provides dev.roofline.core.energy.PowerMeter with ...}), so neither GPU module depends on the other;
 * {@link PowerMeters#installed()} finds an implementation on the module or class path.
 *
 * <pre>{@code
 * try (PowerMeter.Session s = meter.start(device.uuid())) {
 *     runManyTimes();
 *     EnergyReading r = s.stop();
 * }
 * }</pre>
 */
public interface PowerMeter { // implemented by roofline-nvml, found with ServiceLoader
    /** e.g. "NVML". */
    String name();

    /**
     * Starts measuring the GPU with this UUID.
     *
     * @param gpuUuid in NVML form "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (roofline-cuda's {@code Device.uuid()})
     */
    Session start(String gpuUuid); // gpuUuid in NVML form "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"

    /** One measurement; {@link #stop()} ends it and may be called again for the same reading. */
    interface Session extends AutoCloseable {
        EnergyReading stop();

        @Override
        default void close() {
            stop();
        }
    }
}
