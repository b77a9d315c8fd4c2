package dev.roofline.core.energy;

import java.util.Objects;

/**
 * The energy phase of a benchmark: {@code operations} launches run back to back inside one {@link PowerMeter}
 * session.
 *
 * @param meter      the meter's name, e.g. "NVML"
 * @param reading    what it measured
 * @param operations launches in the phase
 * @param gpuSeconds their GPU time between CUDA events (the meter's window also holds the host's start and stop)
 */
public record OperationEnergy(String meter, EnergyReading reading, long operations, double gpuSeconds) {

    public OperationEnergy {
        Objects.requireNonNull(meter, "meter");
        Objects.requireNonNull(reading, "reading");
        if (operations < 1 || !(gpuSeconds > 0)) {
            throw new IllegalArgumentException(
                    "need operations >= 1 and gpuSeconds > 0, got " + operations + ", " + gpuSeconds);
        }
    }

    /** Joules the meter counted, shared over the launches. */
    public double joulesPerOperation() {
        return reading.joules() / operations;
    }

    /** GFLOP per joule (= GFLOP/s per watt): {@code flopsPerOperation} x operations / joules / 1e9. */
    public double gigaflopsPerWatt(long flopsPerOperation) {
        return (double) flopsPerOperation * operations / reading.joules() / 1e9;
    }
}
