package dev.roofline.quant.safetensors;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The element types a safetensors header may name, with their sizes in bytes. The enum constant names are the
 * header's own spellings ({@code "BF16"}, {@code "F8_E4M3"}, …).
 */
public enum Dtype {
    F64(8),
    F32(4),
    F16(2),
    BF16(2),
    F8_E4M3(1),
    F8_E5M2(1),
    I64(8),
    I32(4),
    I16(2),
    I8(1),
    U8(1),
    BOOL(1);

    private final int byteSize;

    Dtype(int byteSize) {
        this.byteSize = byteSize;
    }

    /** Bytes per element. */
    public int byteSize() {
        return byteSize;
    }

    /** The dtype whose header spelling is {@code name} (case-sensitive, as the format defines it). */
    public static Optional<Dtype> fromName(String name) {
        return Arrays.stream(values()).filter(d -> d.name().equals(name)).findFirst();
    }

    /**
     * Bytes a tensor of this dtype and {@code shape} occupies: product of the dimensions × {@link #byteSize()}.
     *
     * @throws ArithmeticException if the count does not fit a {@code long}
     * @throws IllegalArgumentException if a dimension is negative
     */
    public long byteCount(List<Long> shape) {
        return Math.multiplyExact(elementCount(shape), (long) byteSize);
    }

    /** Number of elements of {@code shape}: the product of its dimensions, 1 for a scalar ({@code []}). */
    static long elementCount(List<Long> shape) {
        long count = 1;
        for (int i = 0; i < shape.size(); i++) {
            long dim = shape.get(i);
            if (dim < 0) {
                throw new IllegalArgumentException(
                        "shape[" + i + "] must be non-negative, got " + dim + " in " + shape);
            }
            count = Math.multiplyExact(count, dim);
        }
        return count;
    }
}
