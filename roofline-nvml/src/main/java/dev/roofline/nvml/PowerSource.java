package dev.roofline.nvml;

import java.util.OptionalLong;

/** What a {@link PowerTracker} samples: an {@link NvmlDevice}, or a synthetic source in tests. */
public interface PowerSource {

    /** One reading, time-stamped by the caller with {@code nowNanos} ({@link System#nanoTime()}). */
    PowerSample sample(long nowNanos);

    /**
     * The GPU's cumulative energy counter in millijoules, empty when the GPU has none. Reading it can take
     * milliseconds, so trackers read it only at start and end.
     */
    OptionalLong totalEnergyMillijoules();
}
