package dev.roofline.core.precision;

import dev.roofline.core.internal.Checks;

/**
 * One scale per {@code blockSize} consecutive elements.
 *
 * @param blockSize   elements sharing one scale
 * @param scale       how each block scale is stored
 * @param layout      which elements form a block
 * @param tensorScale an additional single scale for the whole tensor, or {@code null} when there is none
 */
public record BlockScaling(int blockSize, ScaleFormat scale, Layout layout, ScaleFormat tensorScale) {

    /** Which elements form a block. */
    public enum Layout {
        /** Blocks run along the last (contiguous) dimension; each row starts a new block (NVFP4, OCP MX). */
        ROWS,
        /** Blocks run over the flattened tensor (bitsandbytes NF4). */
        FLAT
    }

    public BlockScaling {
        Checks.positive("blockSize", blockSize);
        Checks.notNull("scale", scale);
        Checks.notNull("layout", layout);
    }

    /** Number of block scales stored for a tensor with {@code elements} elements whose last dimension is {@code rowLength}. */
    public long blockCount(long elements, long rowLength) {
        Checks.positive("elements", elements);
        Checks.positive("rowLength", rowLength);
        if (elements % rowLength != 0) {
            throw new IllegalArgumentException(
                    "elements must be whole rows of rowLength, got " + elements + " and " + rowLength);
        }
        return switch (layout) {
            case ROWS -> Checks.multiply(elements / rowLength, ceilDiv(rowLength, blockSize), () -> "block count");
            case FLAT -> ceilDiv(elements, blockSize);
        };
    }

    /** Bytes of every scale (block scales plus the tensor scale) for such a tensor. */
    public long scaleBytes(long elements, long rowLength) {
        long blockScaleBytes = Checks.multiply(blockCount(elements, rowLength), scale.bytes(), () -> "scale bytes");
        return tensorScale == null
                ? blockScaleBytes
                : Checks.add(blockScaleBytes, tensorScale.bytes(), () -> "scale bytes");
    }

    private static long ceilDiv(long a, long b) {
        return Math.ceilDiv(a, b);
    }
}
