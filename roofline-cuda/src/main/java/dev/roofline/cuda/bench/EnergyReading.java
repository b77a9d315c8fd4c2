package dev.roofline.cuda.bench;

/**
 * What a {@link PowerMeter} saw between {@code start} and {@code stop}.
 *
 * @param seconds           wall time measured
 * @param joules            energy drawn in that time
 * @param averageWatts      mean power
 * @param peakWatts         highest power sample
 * @param energySource      how {@code joules} was obtained (e.g. the hardware energy counter, or integrated samples)
 * @param samples           power samples taken
 * @param minSmClockMHz     lowest SM clock seen
 * @param throttled         whether the clocks were held back for power or heat while measuring
 * @param clockEventReasons why, e.g. "SW_POWER_CAP|HW_SLOWDOWN"; empty when none
 */
public record EnergyReading(double seconds, double joules, double averageWatts, double peakWatts,
                            String energySource, int samples, int minSmClockMHz, boolean throttled, String clockEventReasons) {}
