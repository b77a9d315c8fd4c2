package dev.roofline.core.roofline;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;

/**
 * Work that runs on the CUDA cores rather than tensor cores (norms, activations, residual adds, reductions),
 * priced against the FP32 vector ceiling.
 *
 * <pre>{@code
 * // y = x + r over 4096 FP16 values: 1 FLOP per element, reads 2 values and writes 1
 * Elementwise add = Elementwise.streaming("residual add", 4096, 1, Precision.FP16, 2, 1);
 * }</pre>
 */
public record Elementwise(String name, long flops, long bytes) implements Operator {

    public Elementwise {
        Checks.notBlank("name", name);
        if (flops < 0) {
            throw new IllegalArgumentException("flops must be >= 0, got " + flops);
        }
        Checks.positive("bytes", bytes);
    }

    /** {@code elements} elements, each costing {@code flopsPerElement} and moving {@code bytesPerElement}. */
    public static Elementwise of(String name, long elements, double flopsPerElement, double bytesPerElement) {
        Checks.positive("bytesPerElement", bytesPerElement);
        long flops = flopsOf(name, elements, flopsPerElement);
        double bytes = Math.ceil(elements * bytesPerElement);
        if (bytes >= Long.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "bytes of '" + name + "' with " + elements + " elements overflow a long");
        }
        return new Elementwise(name, flops, (long) bytes);
    }

    private static long flopsOf(String name, long elements, double flopsPerElement) {
        Checks.positive("elements", elements);
        if (!Double.isFinite(flopsPerElement) || flopsPerElement < 0) {
            throw new IllegalArgumentException("flopsPerElement must be a finite number >= 0, got " + flopsPerElement);
        }
        double flops = elements * flopsPerElement;
        if (flops >= Long.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "FLOPs of '" + name + "' with " + elements + " elements overflow a long");
        }
        return Math.round(flops);
    }

    /** Each element read {@code reads} times and written {@code writes} times in precision {@code p}. */
    public static Elementwise streaming(
            String name, long elements, double flopsPerElement, Precision p, int reads, int writes) {
        Checks.notNull("precision", p);
        if (reads < 0 || writes < 0 || reads + writes == 0) {
            throw new IllegalArgumentException(
                    "reads and writes must be >= 0 and not both 0, got " + reads + " and " + writes);
        }
        long perTensor = p.storageBytes(elements);
        long bytes = Checks.multiply(perTensor, (long) reads + writes, () -> "bytes of '" + name + "'");
        return new Elementwise(name, flopsOf(name, elements, flopsPerElement), bytes);
    }

    /** A reduction of {@code elements} values to {@code outputs} values (sum, max, norm), one FLOP per input. */
    public static Elementwise reduction(String name, long elements, long outputs, Precision p) {
        Checks.notNull("precision", p);
        Checks.positive("elements", elements);
        Checks.positive("outputs", outputs);
        if (outputs > elements) {
            throw new IllegalArgumentException("outputs must be <= elements, got " + outputs + " > " + elements);
        }
        long bytes = Checks.add(p.storageBytes(elements), p.storageBytes(outputs), () -> "bytes of '" + name + "'");
        return new Elementwise(name, elements, bytes);
    }
}
