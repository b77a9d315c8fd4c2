package dev.roofline.nvml;

import dev.roofline.core.energy.EnergySource;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What a GPU drew over an interval.
 *
 * @param durationSeconds     start to end of tracking
 * @param sampleCount         power samples taken
 * @param averageWatts        energy / duration
 * @param peakWatts           largest sample (0 without samples)
 * @param energyJoules        from the hardware energy counter when the GPU has one, else the integral of the samples
 * @param energySource        which of the two: {@link EnergySource#COUNTER} is the difference of
 *                            {@code nvmlDeviceGetTotalEnergyConsumption} read at start and end,
 *                            {@link EnergySource#INTEGRATED} (also when the counter went back, see {@code error}) the
 *                            trapezoidal integral of the power samples (the first
 *                            and last held to the interval's ends), {@link EnergySource#NONE} neither
 * @param minSmClockMHz       lowest SM clock sampled, {@link PowerSample#NOT_SUPPORTED} when none was reported
 * @param averageSmClockMHz   mean of the SM clock samples, NaN when none was reported
 * @param reasonsSeen         every clock-event reason present in any sample
 * @param error               what went wrong, if anything: sampling stopped early, a reading got stuck, or the energy
 *                            counter failed or went back (then energy is integrated from the samples)
 */
public record PowerSummary(
        double durationSeconds,
        int sampleCount,
        double averageWatts,
        double peakWatts,
        double energyJoules,
        EnergySource energySource,
        int minSmClockMHz,
        double averageSmClockMHz,
        Set<ClockEventReason> reasonsSeen,
        Optional<String> error) {

    public PowerSummary {
        Objects.requireNonNull(energySource, "energySource must not be null");
        Objects.requireNonNull(reasonsSeen, "reasonsSeen must not be null");
        Objects.requireNonNull(error, "error must not be null");
        reasonsSeen = Collections.unmodifiableSet(
                reasonsSeen.isEmpty() ? EnumSet.noneOf(ClockEventReason.class) : EnumSet.copyOf(reasonsSeen));
    }

    /**
     * Summarises {@code samples} (in time order) taken between {@code startNanos} and {@code endNanos}.
     * {@code energyStartMj}/{@code energyEndMj} are counter readings in millijoules (empty without a counter).
     */
    public static PowerSummary of(
            List<PowerSample> samples,
            long startNanos,
            long endNanos,
            OptionalLong energyStartMj,
            OptionalLong energyEndMj,
            Optional<String> error) {
        Objects.requireNonNull(samples, "samples must not be null");
        Objects.requireNonNull(energyStartMj, "energyStartMj must not be null");
        Objects.requireNonNull(energyEndMj, "energyEndMj must not be null");
        Objects.requireNonNull(error, "error must not be null");
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("endNanos must be >= startNanos, got " + endNanos + " < " + startNanos);
        }
        double duration = (endNanos - startNanos) / 1e9;
        double peak = 0;
        int minClock = Integer.MAX_VALUE;
        long clockSum = 0;
        int clockCount = 0;
        long reasons = 0;
        for (PowerSample s : samples) {
            peak = Math.max(peak, s.watts());
            if (s.smClockMHz() != PowerSample.NOT_SUPPORTED) {
                minClock = Math.min(minClock, s.smClockMHz());
                clockSum += s.smClockMHz();
                clockCount++;
            }
            reasons |= s.clockEventMask();
        }
        double energy;
        EnergySource source;
        Optional<String> problem = error;
        boolean counted = energyStartMj.isPresent() && energyEndMj.isPresent();
        if (counted && energyEndMj.getAsLong() < energyStartMj.getAsLong()) {
            // the counter only grows; a smaller end reading means it wrapped or was reset (driver reload, GPU reset),
            // and the difference would be a negative or meaningless energy
            counted = false;
            String why = "energy counter went back from " + energyStartMj.getAsLong() + " mJ to "
                    + energyEndMj.getAsLong() + " mJ (wrapped or reset): energy integrated from the samples";
            problem = Optional.of(error.map(e -> e + "; " + why).orElse(why));
        }
        if (counted) {
            energy = (energyEndMj.getAsLong() - energyStartMj.getAsLong()) / 1000.0;
            source = EnergySource.COUNTER;
        } else if (!samples.isEmpty()) {
            energy = integrate(samples, startNanos, endNanos);
            source = EnergySource.INTEGRATED;
        } else {
            energy = 0;
            source = EnergySource.NONE;
        }
        double average = duration > 0
                ? energy / duration
                : (samples.isEmpty() ? 0 : samples.getFirst().watts());
        return new PowerSummary(
                duration,
                samples.size(),
                average,
                peak,
                energy,
                source,
                clockCount == 0 ? PowerSample.NOT_SUPPORTED : minClock,
                clockCount == 0 ? Double.NaN : (double) clockSum / clockCount,
                ClockEventReason.decode(reasons),
                problem);
    }

    /** Trapezoids between samples; the first sample's power held back to start, the last one's forward to end. */
    static double integrate(List<PowerSample> samples, long startNanos, long endNanos) {
        PowerSample first = samples.getFirst();
        PowerSample last = samples.getLast();
        double joules = first.watts() * Math.max(0, first.timeNanos() - startNanos) / 1e9
                + last.watts() * Math.max(0, endNanos - last.timeNanos()) / 1e9;
        for (int i = 1; i < samples.size(); i++) {
            PowerSample a = samples.get(i - 1);
            PowerSample b = samples.get(i);
            joules += (a.watts() + b.watts()) / 2 * (b.timeNanos() - a.timeNanos()) / 1e9;
        }
        return joules;
    }

    /** True when any sample showed a load-related slowdown (power cap, thermal, power brake). */
    public boolean throttled() {
        return reasonsSeen.stream().anyMatch(ClockEventReason::isThrottle);
    }

    /** Joules per operation when {@code operations} ran in the interval. */
    public double joulesPer(long operations) {
        if (operations <= 0) {
            throw new IllegalArgumentException("operations must be > 0, got " + operations);
        }
        return energyJoules / operations;
    }

    /** Useful work per energy: {@code flops} done in the interval / joules / 1e9 (GFLOP/J = GFLOPS/W). */
    public double gflopsPerWatt(double flops) {
        if (!(flops > 0) || Double.isInfinite(flops)) {
            throw new IllegalArgumentException("flops must be a finite number > 0, got " + flops);
        }
        if (!(energyJoules > 0)) {
            throw new IllegalStateException(
                    "no energy measured (" + energySource + "): cannot compute GFLOPS per watt");
        }
        return flops / energyJoules / 1e9;
    }
}
