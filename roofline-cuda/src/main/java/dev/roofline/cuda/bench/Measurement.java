package dev.roofline.cuda.bench;

import dev.roofline.core.roofline.Operator;
import dev.roofline.core.roofline.Prediction;

import java.util.Objects;

/**
 * A timed operator beside its roofline prediction.
 *
 * @param label      e.g. "FP8 E4M3 -> FP16"
 * @param operator   what ran (its FLOPs and bytes)
 * @param time       the timings
 * @param prediction the roofline's time for it
 */
public record Measurement(String label, Operator operator, TimingStats time, Prediction prediction) {

    public Measurement {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(operator, "operator");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(prediction, "prediction");
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
        return (time.medianSeconds() / prediction.timeSeconds() - 1) * 100;
    }

    /** The same timing judged by another prediction (e.g. one using measured ceilings). */
    public Measurement against(Prediction other) {
        return new Measurement(label, operator, time, other);
    }
}
