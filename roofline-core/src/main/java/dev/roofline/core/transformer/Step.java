package dev.roofline.core.transformer;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.roofline.Operator;

/**
 * One operator of a model's forward pass and how many times it runs (once per layer, or once per model).
 *
 * @param matmul true for tensor-core work (projections, attention Q·Kᵀ and score·V), false for vector work
 */
public record Step(Operator operator, long count, boolean matmul) {

    public Step {
        Checks.notNull("operator", operator);
        Checks.positive("count", count);
    }

    public String name() {
        return operator.name();
    }

    public long flops() {
        return Checks.multiply(operator.flops(), count, () -> "FLOPs of " + operator.name());
    }

    public long bytes() {
        return Checks.multiply(operator.bytes(), count, () -> "bytes of " + operator.name());
    }
}
