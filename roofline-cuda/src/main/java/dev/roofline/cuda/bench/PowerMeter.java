package dev.roofline.cuda.bench;

/**
 * Measures the energy a GPU draws while the harness runs an operation back to back. roofline-cuda defines the
 * service and roofline-nvml implements it ({@code provides dev.roofline.cuda.bench.PowerMeter with ...}), so this
 * module never depends on NVML; {@link PowerMeters#installed()} finds an implementation on the module or class path.
 *
 * <pre>{@code
 * try (PowerMeter.Session s = meter.start(device.uuid())) {
 *     runManyTimes();
 *     EnergyReading r = s.stop();
 * }
 * }</pre>
 */
public interface PowerMeter {            // implemented by roofline-nvml, found with ServiceLoader
    /** e.g. "NVML". */
    String name();

    /**
     * Starts measuring the GPU with this UUID.
     *
     * @param gpuUuid in NVML form "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" ({@link dev.roofline.cuda.Device#uuid()})
     */
    Session start(String gpuUuid);        // gpuUuid in NVML form "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"

    /** One measurement; {@link #stop()} ends it and may be called again for the same reading. */
    interface Session extends AutoCloseable { EnergyReading stop(); @Override default void close() { stop(); } }
}
