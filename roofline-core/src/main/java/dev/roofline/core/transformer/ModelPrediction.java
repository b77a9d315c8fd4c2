package dev.roofline.core.transformer;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.model.Model;

import java.util.List;

/**
 * A whole forward pass priced operator by operator. Operators run one after another, so the time is the sum of
 * their roofline times (no overlap between operators).
 */
public record ModelPrediction(Model model, Workload workload, Hardware hardware, List<OperatorTime> operators) {

    public ModelPrediction {
        operators = List.copyOf(operators);
    }

    /** Prefill: the whole prompt of every sequence. Decode: one step, one new token per sequence. */
    public double timeSeconds() {
        double t = 0;
        for (OperatorTime o : operators) {
            t += o.timeSeconds();
        }
        return t;
    }

    public double timeMillis() {
        return timeSeconds() * 1e3;
    }

    /** Tokens processed (prefill) or generated (decode) per second over the whole batch. */
    public double tokensPerSecond() {
        return workload.tokens() / timeSeconds();
    }

    public long flops() {
        long f = 0;
        for (OperatorTime o : operators) {
            f = Checks.add(f, o.flops(), () -> "the FLOPs of the step's operators");
        }
        return f;
    }

    public long bytes() {
        long b = 0;
        for (OperatorTime o : operators) {
            b = Checks.add(b, o.bytes(), () -> "the bytes of the step's operators");
        }
        return b;
    }

    /** Fraction of the total time spent in {@code o}. */
    public double share(OperatorTime o) {
        return o.timeSeconds() / timeSeconds();
    }

    /** The step named {@code name}. */
    public OperatorTime operator(String name) {
        for (OperatorTime o : operators) {
            if (o.name().equals(name)) {
                return o;
            }
        }
        throw new IllegalArgumentException("no operator '" + name + "' in " + model.name() + "; have "
                + operators.stream().map(OperatorTime::name).toList());
    }
}
