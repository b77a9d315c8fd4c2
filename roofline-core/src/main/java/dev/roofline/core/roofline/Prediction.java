package dev.roofline.core.roofline;

import dev.roofline.core.hardware.ComputePath;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.internal.Checks;

/**
 * The roofline's answer for one operator on one GPU: {@code time = latency + max(bytes / bandwidth, flops / peak)},
 * with bandwidth and peak already multiplied by the efficiency factors. The latency is the hardware's
 * {@link Hardware#kernelLatencySeconds() fixed cost per kernel}: 0 for datasheet hardware, so the time is then the
 * plain roofline; measured on a device it is the intercept of copy time against bytes (roofline-cuda's
 * {@code DeviceCeilings}). A calibration adds to it the fixed time the operator's class was measured to cost.
 *
 * @param operator                 what was priced
 * @param hardware                 where
 * @param computePath              which arithmetic ceiling applies and why (native or a costed fallback)
 * @param bytesPerSecond           effective bandwidth used
 * @param peakFlopsPerSecond       effective arithmetic ceiling used
 * @param memorySeconds            bytes / bandwidth
 * @param computeSeconds           flops / peak
 * @param latencySeconds           fixed cost of the kernel, added to the larger of the two
 */
public record Prediction(
        Operator operator,
        Hardware hardware,
        ComputePath computePath,
        double bytesPerSecond,
        double peakFlopsPerSecond,
        double memorySeconds,
        double computeSeconds,
        double latencySeconds) {

    public long flops() {
        return operator.flops();
    }

    public long bytes() {
        return operator.bytes();
    }

    /** FLOPs per DRAM byte. */
    public double flopsPerByte() {
        return (double) operator.flops() / operator.bytes();
    }

    /** The intensity where the bandwidth slope meets the arithmetic ceiling. */
    public double ridgeFlopsPerByte() {
        return peakFlopsPerSecond / bytesPerSecond;
    }

    /** The same prediction without the kernel latency: the plain roofline time ({@link #hardware()} still has one). */
    public Prediction withoutLatency() {
        return withLatency(0);
    }

    /**
     * The same prediction with another fixed cost: {@code latencySeconds} in place of {@link #latencySeconds()}, the
     * roofline's two terms unchanged. A calibration uses it to add the fixed time its operator class was measured to
     * cost.
     */
    public Prediction withLatency(double latencySeconds) {
        if (!(latencySeconds >= 0 && latencySeconds < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("latencySeconds must be a finite number >= 0, got " + latencySeconds);
        }
        return new Prediction(
                operator,
                hardware,
                computePath,
                bytesPerSecond,
                peakFlopsPerSecond,
                memorySeconds,
                computeSeconds,
                latencySeconds);
    }

    /**
     * The same operator, compute path and arithmetic ceiling at another effective bandwidth: the memory term becomes
     * {@code bytes / bytesPerSecond}. A calibration uses it to price each operator class at the fraction of the copy
     * bandwidth it was measured to reach.
     */
    public Prediction atBandwidth(double bytesPerSecond) {
        Checks.positive("bytesPerSecond", bytesPerSecond);
        return new Prediction(
                operator,
                hardware,
                computePath,
                bytesPerSecond,
                peakFlopsPerSecond,
                operator.bytes() / bytesPerSecond,
                computeSeconds,
                latencySeconds);
    }

    /** Which of the roofline's two terms is larger; the latency, when there is one, is not part of this. */
    public Bound bound() {
        return memorySeconds >= computeSeconds ? Bound.MEMORY : Bound.COMPUTE;
    }

    /** min(peak, intensity × bandwidth): the roofline itself, without the latency term. */
    public double attainableFlopsPerSecond() {
        return Math.min(peakFlopsPerSecond, flopsPerByte() * bytesPerSecond);
    }

    public double timeSeconds() {
        return latencySeconds + Math.max(memorySeconds, computeSeconds);
    }

    public double timeMicros() {
        return timeSeconds() * 1e6;
    }

    /** How many times faster this is than {@code baseline} (baseline time / this time). */
    public double speedupOver(Prediction baseline) {
        Checks.notNull("baseline", baseline);
        return baseline.timeSeconds() / timeSeconds();
    }
}
