package dev.roofline.cuda.bench;

import dev.roofline.core.roofline.Operator;

import java.util.Objects;

/**
 * An operator a benchmark could not time, e.g. a precision cuBLASLt has no algorithm for on this device.
 *
 * @param label    the variant, as a {@link Measurement} of it would have been labelled
 * @param operator what was to run
 * @param reason   why it did not, e.g. "CublasException: ..."
 */
public record BenchmarkFailure(String label, Operator operator, String reason) implements BenchmarkResult {

    public BenchmarkFailure {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(operator, "operator");
        Objects.requireNonNull(reason, "reason");
    }

    /** The failure of {@code operator} with exception {@code e}: its simple class name and message. */
    public static BenchmarkFailure of(String label, Operator operator, RuntimeException e) {
        return new BenchmarkFailure(label, operator, e.getClass().getSimpleName() + ": " + e.getMessage());
    }
}
