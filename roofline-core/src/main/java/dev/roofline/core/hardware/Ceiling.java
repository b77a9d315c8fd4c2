package dev.roofline.core.hardware;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;

/**
 * A peak arithmetic rate for one precision.
 *
 * @param precision      operand precision of the multiply-adds
 * @param flopsPerSecond peak rate, counting a multiply-add as two operations (dense unless stated otherwise); finite
 *                       and at least {@link Hardware#MIN_FLOPS_PER_SECOND}
 * @param unit           the execution unit that reaches it
 * @param source         where the figure comes from
 */
public record Ceiling(Precision precision, double flopsPerSecond, Unit unit, Source source) {

    /** Tensor cores (matrix units) or the general-purpose CUDA cores. */
    public enum Unit {
        TENSOR_CORE,
        CUDA_CORE
    }

    public Ceiling {
        Checks.notNull("precision", precision);
        Checks.atLeast(
                precision.displayName() + " flopsPerSecond",
                flopsPerSecond,
                Hardware.MIN_FLOPS_PER_SECOND,
                "1 GFLOP/s");
        Checks.notNull("unit", unit);
        Checks.notNull("source", source);
    }

    public double teraFlopsPerSecond() {
        return flopsPerSecond / 1e12;
    }
}
