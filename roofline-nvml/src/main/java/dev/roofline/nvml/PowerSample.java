package dev.roofline.nvml;

/**
 * One telemetry reading.
 *
 * @param timeNanos        {@link System#nanoTime()} when it was taken
 * @param watts            board power draw
 * @param smClockMHz       SM clock, or {@link #NOT_SUPPORTED}
 * @param clockEventMask   NVML clock-event reasons ({@link ClockEventReason#decode}), 0 when none or not supported
 */
public record PowerSample(long timeNanos, double watts, int smClockMHz, long clockEventMask) {

    /** Marks a reading the GPU does not support. */
    public static final int NOT_SUPPORTED = -1;

    public PowerSample {
        if (!Double.isFinite(watts) || watts < 0) {
            throw new IllegalArgumentException("watts must be a finite number >= 0, got " + watts);
        }
        if (smClockMHz < NOT_SUPPORTED) {
            throw new IllegalArgumentException("smClockMHz must be >= 0 or NOT_SUPPORTED, got " + smClockMHz);
        }
    }
}
