package dev.roofline.cuda.decode;

import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.DeviceWeights;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Projections that read the same input, stacked row-wise into one matrix of {@link #rows()} outputs (q, k and v; gate
 * and up) and kept as one or more {@link DeviceWeights} parts, part i's rows following part i − 1's. A matrix that
 * cannot be one buffer without re-encoding its bytes stays in parts: NVFP4 projections with different global scales
 * ({@code weight_scale_2}). {@link DenseDecoder} runs one product per part, each into its rows of the output. Owns its
 * parts.
 *
 * @param parts at least one, all of the same column count, in row order
 */
public record StackedWeights(List<DeviceWeights> parts) implements AutoCloseable {

    public StackedWeights {
        Objects.requireNonNull(parts, "parts");
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a stacked matrix needs at least one part");
        }
        for (int i = 0; i < parts.size(); i++) {
            DeviceWeights p = Objects.requireNonNull(parts.get(i), "parts[" + i + "]");
            if (p.cols() != parts.getFirst().cols()) {
                throw new IllegalArgumentException("the parts of a stacked matrix must read the same input: parts[0]"
                        + " has " + parts.getFirst().cols() + " columns, parts[" + i + "] " + p.cols());
            }
        }
        parts = List.copyOf(parts);
        long rows = parts.stream().mapToLong(DeviceWeights::rows).sum();
        if (rows > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "the parts of a stacked matrix have " + rows + " rows, more than " + Integer.MAX_VALUE);
        }
    }

    /** The stack of {@code parts} in this order (one matrix is a stack of one part). */
    public static StackedWeights of(DeviceWeights... parts) {
        return new StackedWeights(Arrays.asList(parts));
    }

    /** Output rows of the whole stack: the sum of the parts'. */
    public int rows() {
        int rows = 0;
        for (DeviceWeights p : parts) {
            rows += p.rows();
        }
        return rows;
    }

    /** Columns of every part: the input width. */
    public int cols() {
        return parts.getFirst().cols();
    }

    /** The first output row of {@code parts[part]}: the rows of the parts before it. */
    public int firstRow(int part) {
        Objects.checkIndex(part, parts.size());
        int row = 0;
        for (int i = 0; i < part; i++) {
            row += parts.get(i).rows();
        }
        return row;
    }

    /** Frees every part, last first. */
    @Override
    public void close() {
        try (OwnedResources owned = new OwnedResources()) {
            parts.forEach(owned::add);
        }
    }
}
