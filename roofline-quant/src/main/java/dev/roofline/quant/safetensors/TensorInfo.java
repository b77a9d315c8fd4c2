package dev.roofline.quant.safetensors;

import java.util.List;
import java.util.Objects;

/**
 * One tensor of a safetensors file: its name, dtype, shape ({@code []} for a scalar) and byte range
 * [{@code begin}, {@code end}) relative to the start of the data section, as the header's {@code data_offsets}.
 */
public record TensorInfo(String name, Dtype dtype, List<Long> shape, long begin, long end) {
    public TensorInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(dtype, "dtype");
        shape = List.copyOf(shape);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("byte range must satisfy 0 <= begin <= end, got [" + begin + ", " + end
                    + "] for tensor '" + name + "'");
        }
        long expected = dtype.byteCount(shape);
        if (expected != end - begin) {
            throw new IllegalArgumentException("tensor '" + name + "': shape " + shape + " × " + dtype + " needs "
                    + expected + " bytes, byte range [" + begin + ", " + end + "] has " + (end - begin));
        }
    }

    /** Bytes the tensor occupies: {@code end - begin}. */
    public long byteSize() {
        return end - begin;
    }

    /** Number of elements: the product of the shape, 1 for a scalar. */
    public long elementCount() {
        return Dtype.elementCount(shape);
    }
}
