package dev.roofline.core.transformer;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.roofline.Prediction;

/** One step's roofline prediction; totals are the single operator's figures times the step's count. */
public record OperatorTime(Step step, Prediction prediction) {

    public OperatorTime {
        Checks.notNull("step", step);
        Checks.notNull("prediction", prediction);
    }

    public String name() {
        return step.name();
    }

    public long count() {
        return step.count();
    }

    public double timeSeconds() {
        return prediction.timeSeconds() * step.count();
    }

    public long flops() {
        return step.flops();
    }

    public long bytes() {
        return step.bytes();
    }
}
