package dev.roofline.core.energy;

import java.util.Objects;
import java.util.Set;

/**
 * What a {@link PowerMeter} saw between {@code start} and {@code stop}.
 *
 * @param seconds           wall time measured
 * @param joules            energy drawn in that time
 * @param averageWatts      mean power
 * @param peakWatts         highest power sample
 * @param energySource      how {@code joules} was obtained
 * @param samples           power samples taken
 * @param minSmClockMHz     lowest SM clock seen
 * @param clockLimitReasons every reason the clocks were below their maximum while measuring; empty when none
 */
public record EnergyReading(
        double seconds,
        double joules,
        double averageWatts,
        double peakWatts,
        EnergySource energySource,
        int samples,
        int minSmClockMHz,
        Set<ClockLimitReason> clockLimitReasons) {

    public EnergyReading {
        Objects.requireNonNull(energySource, "energySource");
        clockLimitReasons = ClockLimitReason.setOf(Objects.requireNonNull(clockLimitReasons, "clockLimitReasons"));
    }

    /** Whether the clocks were held back for power or heat while measuring ({@link ClockLimitReason#isThrottle()}). */
    public boolean throttled() {
        return clockLimitReasons.stream().anyMatch(ClockLimitReason::isThrottle);
    }

    /** For reports: {@link ClockLimitReason#names} of {@link #clockLimitReasons}, e.g. "SW_POWER_CAP|HW_SLOWDOWN". */
    public String clockLimitReasonNames() {
        return ClockLimitReason.names(clockLimitReasons);
    }
}
