package dev.roofline.cuda.bench;

import dev.roofline.core.energy.OperationEnergy;
import dev.roofline.core.energy.PowerMeter;
import dev.roofline.core.roofline.Operator;
import dev.roofline.core.roofline.Prediction;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * A timed operator beside its roofline prediction, computed once when it was measured; what a {@link Report}
 * derives its columns from. Beside the timing it may carry the prediction from datasheet ceilings, the energy it took
 * (when a {@link PowerMeter} was present), a baseline it is compared with (e.g. cuBLASLt FP16 for a GEMV kernel) and
 * the copy it is set beside ({@link CopyReference}); the figures that need one are empty without it.
 *
 * <pre>{@code
 * Measurement m = new Measurement("NVFP4", gemv, TimingStats.of(12.1, 12.3, 12.2), onMeasuredCeilings.predict(gemv))
 *         .withBaseline(cublasFp16).withCopy(new CopyReference(bytes, copyBytesPerSecond, sameBytesCopy));
 * m.errorPercent();      // (12.2 / predicted - 1) x 100
 * m.speedup();           // cuBLAS median / 12.2
 * }</pre>
 *
 * @param label      e.g. "FP8 E4M3 -> FP16" or "NVFP4"
 * @param operator   what ran (its FLOPs and bytes)
 * @param time       the timings
 * @param prediction the roofline's time for it, on the ceilings it is judged by (measured ones, where known)
 * @param datasheet  the roofline's time on the device's datasheet ceilings, where computed
 * @param energy     the energy phase, empty without a meter
 * @param baseline   what it is compared with, e.g. the vendor library's product of the same shape
 * @param copy       the copy it is set beside, for memory-bound kernels
 */
public record Measurement(
        String label,
        Operator operator,
        TimingStats time,
        Prediction prediction,
        Optional<Prediction> datasheet,
        Optional<OperationEnergy> energy,
        Optional<Measurement> baseline,
        Optional<CopyReference> copy)
        implements BenchmarkResult {

    public Measurement {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(operator, "operator");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(prediction, "prediction");
        Objects.requireNonNull(datasheet, "datasheet");
        Objects.requireNonNull(energy, "energy");
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(copy, "copy");
    }

    /** Timing and prediction alone. */
    public Measurement(String label, Operator operator, TimingStats time, Prediction prediction) {
        this(label, operator, time, prediction, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** FLOPs over the median time, in TFLOP/s. */
    public double teraFlopsPerSecond() {
        return operator.flops() / time.medianSeconds() / 1e12;
    }

    /** Model bytes over the median time, in GB/s. */
    public double gigabytesPerSecond() {
        return operator.bytes() / time.medianSeconds() / 1e9;
    }

    /** (measured / predicted - 1) x 100: positive when slower than predicted. */
    public double errorPercent() {
        return errorPercent(prediction);
    }

    /** {@link #errorPercent()} against the prediction without its kernel latency: the plain roofline. */
    public double errorPercentWithoutLatency() {
        return errorPercent(prediction.withoutLatency());
    }

    /** {@link #errorPercent()} against the datasheet prediction. */
    public OptionalDouble datasheetErrorPercent() {
        return datasheet.map(p -> OptionalDouble.of(errorPercent(p))).orElse(OptionalDouble.empty());
    }

    /** Joules per launch in the energy phase. */
    public OptionalDouble joulesPerOperation() {
        return fromEnergy(OperationEnergy::joulesPerOperation);
    }

    /** The operator's FLOPs per joule in the energy phase, in GFLOP/s per watt. */
    public OptionalDouble gigaflopsPerWatt() {
        return fromEnergy(e -> e.gigaflopsPerWatt(operator.flops()));
    }

    /** How many times faster than the baseline: baseline median / this median. */
    public OptionalDouble speedup() {
        return baseline.map(b -> OptionalDouble.of(b.time().medianSeconds() / time.medianSeconds()))
                .orElse(OptionalDouble.empty());
    }

    /** The speedup over the baseline of a kernel running exactly at the prediction: baseline median / predicted time. */
    public OptionalDouble speedupAtRoofline() {
        return baseline.map(b -> OptionalDouble.of(b.time().medianSeconds() / prediction.timeSeconds()))
                .orElse(OptionalDouble.empty());
    }

    /** The copy reference's streamed bytes over the median time, in GB/s (for a GEMV: weights and scales). */
    public OptionalDouble streamedGigabytesPerSecond() {
        return fromCopy(c -> c.streamedBytes() / time.medianSeconds() / 1e9);
    }

    /** The streamed bytes over the median time as a share of the copy bandwidth, in per cent. */
    public OptionalDouble percentOfCopy() {
        return fromCopy(c -> c.percentOfCopy(time.medianSeconds()));
    }

    /** The share of the copy bandwidth a kernel running exactly at the prediction would reach, in per cent. */
    public OptionalDouble percentOfCopyAtRoofline() {
        return fromCopy(c -> c.percentOfCopy(prediction.timeSeconds()));
    }

    /** This median over the same-bytes copy's median: 1 is as fast as the copy. */
    public OptionalDouble timesSameBytesCopy() {
        return fromCopy(c -> time.medianSeconds() / c.sameBytesCopy().medianSeconds());
    }

    /** This median over the same-bytes read's (a measured floor for a kernel streaming those bytes): 1 is that floor. */
    public OptionalDouble timesSameBytesRead() {
        return copy.flatMap(CopyReference::sameBytesRead)
                .map(r -> OptionalDouble.of(time.medianSeconds() / r.medianSeconds()))
                .orElse(OptionalDouble.empty());
    }

    /** The share of the copy bandwidth the same-bytes read reaches, in per cent: the most any such kernel shows. */
    public OptionalDouble readPercentOfCopy() {
        return copy.flatMap(c -> c.sameBytesRead().map(r -> OptionalDouble.of(c.percentOfCopy(r.medianSeconds()))))
                .orElse(OptionalDouble.empty());
    }

    /** The same timing judged by another prediction (e.g. one using measured ceilings). */
    public Measurement against(Prediction other) {
        return new Measurement(label, operator, time, other, datasheet, energy, baseline, copy);
    }

    /** The same under another label (e.g. the variant's, where the library names the product otherwise). */
    public Measurement withLabel(String other) {
        return new Measurement(other, operator, time, prediction, datasheet, energy, baseline, copy);
    }

    /** The same, also priced on datasheet ceilings. */
    public Measurement withDatasheet(Prediction p) {
        return new Measurement(label, operator, time, prediction, Optional.of(p), energy, baseline, copy);
    }

    public Measurement withEnergy(OperationEnergy e) {
        return new Measurement(label, operator, time, prediction, datasheet, Optional.of(e), baseline, copy);
    }

    /** The same, compared with {@code b}. */
    public Measurement withBaseline(Measurement b) {
        return new Measurement(label, operator, time, prediction, datasheet, energy, Optional.of(b), copy);
    }

    /** The same, set beside {@code c}. */
    public Measurement withCopy(CopyReference c) {
        return new Measurement(label, operator, time, prediction, datasheet, energy, baseline, Optional.of(c));
    }

    private double errorPercent(Prediction p) {
        return (time.medianSeconds() / p.timeSeconds() - 1) * 100;
    }

    private OptionalDouble fromEnergy(ToDoubleFunction<OperationEnergy> f) {
        return energy.map(e -> OptionalDouble.of(f.applyAsDouble(e))).orElse(OptionalDouble.empty());
    }

    private OptionalDouble fromCopy(ToDoubleFunction<CopyReference> f) {
        return copy.map(c -> OptionalDouble.of(f.applyAsDouble(c))).orElse(OptionalDouble.empty());
    }
}
