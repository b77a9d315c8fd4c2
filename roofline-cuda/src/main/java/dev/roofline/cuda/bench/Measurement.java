package dev.roofline.cuda.bench;

import dev.roofline.core.energy.OperationEnergy;
import dev.roofline.core.energy.PowerMeter;
import dev.roofline.core.roofline.Operator;
import dev.roofline.core.roofline.Prediction;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A timed operator beside its roofline prediction, with the energy it took when a {@link PowerMeter} was present.
 *
 * @param label      e.g. "FP8 E4M3 -> FP16"
 * @param operator   what ran (its FLOPs and bytes)
 * @param time       the timings
 * @param prediction the roofline's time for it
 * @param energy     the energy phase, empty without a meter
 */
public record Measurement(String label, Operator operator, TimingStats time, Prediction prediction,
                          Optional<OperationEnergy> energy) {

    public Measurement {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(operator, "operator");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(prediction, "prediction");
        Objects.requireNonNull(energy, "energy");
    }

    /** Without energy. */
    public Measurement(String label, Operator operator, TimingStats time, Prediction prediction) {
        this(label, operator, time, prediction, Optional.empty());
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

    /** Joules per launch in the energy phase. */
    public OptionalDouble joulesPerOperation() {
        return energy.map(e -> OptionalDouble.of(e.joulesPerOperation())).orElse(OptionalDouble.empty());
    }

    /** The operator's FLOPs per joule in the energy phase, in GFLOP/s per watt. */
    public OptionalDouble gigaflopsPerWatt() {
        return energy.map(e -> OptionalDouble.of(e.gigaflopsPerWatt(operator.flops()))).orElse(OptionalDouble.empty());
    }

    /** The same timing judged by another prediction (e.g. one using measured ceilings). */
    public Measurement against(Prediction other) {
        return new Measurement(label, operator, time, other, energy);
    }

    public Measurement withEnergy(OperationEnergy e) {
        return new Measurement(label, operator, time, prediction, Optional.of(e));
    }
}
