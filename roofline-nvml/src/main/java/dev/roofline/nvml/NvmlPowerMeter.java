package dev.roofline.nvml;

import dev.roofline.core.energy.EnergyReading;
import dev.roofline.core.energy.PowerMeter;

/**
 * Energy for roofline's benchmarks (the {@link PowerMeter} service of roofline-core): a {@link PowerTracker} on the NVML device whose UUID matches the CUDA
 * device's. Found by {@link java.util.ServiceLoader} when roofline-nvml is on the module or class path.
 */
public final class NvmlPowerMeter implements PowerMeter {

    /** Needed by {@link java.util.ServiceLoader}. */
    public NvmlPowerMeter() {}

    @Override
    public String name() {
        return "NVML";
    }

    /**
     * @throws NvmlUnavailableException when NVML cannot be used
     * @throws IllegalArgumentException when no NVML device has this UUID
     */
    @Override
    public Session start(String gpuUuid) {
        NvmlMonitor nvml = NvmlMonitor.open();
        try {
            NvmlDevice device = nvml.deviceByUuid(gpuUuid);
            PowerTracker tracker = PowerTracker.start(device);
            return new Session() {
                private EnergyReading reading;

                @Override
                public synchronized EnergyReading stop() {
                    if (reading == null) {
                        try {
                            reading = toReading(tracker.stop());
                        } finally {
                            nvml.close();
                        }
                    }
                    return reading;
                }
            };
        } catch (RuntimeException e) {
            nvml.close();
            throw e;
        }
    }

    static EnergyReading toReading(PowerSummary s) {
        return new EnergyReading(
                s.durationSeconds(),
                s.energyJoules(),
                s.averageWatts(),
                s.peakWatts(),
                s.energySource(),
                s.sampleCount(),
                s.minSmClockMHz(),
                ClockEventReason.reasons(s.reasonsSeen()));
    }
}
