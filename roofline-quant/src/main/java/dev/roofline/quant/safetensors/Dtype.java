package dev.roofline.quant.safetensors;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The element types a safetensors header may name, with their sizes in bits: every dtype of the reference
 * implementation (huggingface/safetensors {@code Dtype} and {@code Dtype::bitsize}, 0.6). The enum constant names are
 * the header's own spellings ({@code "BF16"}, {@code "F8_E4M3"}, …). F4 and the two F6 types pack elements below a
 * byte: a tensor of them must fill a whole number of bytes, as the reference requires.
 */
public enum Dtype {
    F64(64),
    F32(32),
    F16(16),
    BF16(16),
    F8_E4M3(8),
    F8_E5M2(8),
    I64(64),
    I32(32),
    I16(16),
    I8(8),
    U8(8),
    BOOL(8),
    U64(64),
    U32(32),
    U16(16),
    /** Two FP32 parts, real then imaginary. */
    C64(64),
    /** OCP MX scale: a power of two 2^(code − 127), 0xFF is NaN. */
    F8_E8M0(8),
    /** E4M3 with AMD's "finite, unsigned zero" encoding (no −0, one NaN 0x80, bias 8). */
    F8_E4M3FNUZ(8),
    /** E5M2 with AMD's "finite, unsigned zero" encoding (no −0, one NaN 0x80, bias 16). */
    F8_E5M2FNUZ(8),
    /** OCP MX FP4 (E2M1), two elements per byte. */
    F4(4),
    /** OCP MX FP6 E2M3, packed 6 bits per element. */
    F6_E2M3(6),
    /** OCP MX FP6 E3M2, packed 6 bits per element. */
    F6_E3M2(6);

    private final int bitSize;

    Dtype(int bitSize) {
        this.bitSize = bitSize;
    }

    /** Bits per element. */
    public int bitSize() {
        return bitSize;
    }

    /**
     * Bytes per element for the types of at least one byte.
     *
     * @throws UnsupportedOperationException for F4, F6_E2M3 and F6_E3M2, which pack elements below a byte
     */
    public int byteSize() {
        if (bitSize % Byte.SIZE != 0) {
            throw new UnsupportedOperationException(
                    name() + " has " + bitSize + "-bit elements, no whole number of bytes each; use bitSize()");
        }
        return bitSize / Byte.SIZE;
    }

    /** The dtype whose header spelling is {@code name} (case-sensitive, as the format defines it). */
    public static Optional<Dtype> fromName(String name) {
        return Arrays.stream(values()).filter(d -> d.name().equals(name)).findFirst();
    }

    private static final Dtype[] ALL = values();

    /** The dtype spelled by {@code chars[offset .. offset + length)}, or null: a header lookup without a String. */
    static Dtype fromChars(char[] chars, int offset, int length) {
        search:
        for (Dtype d : ALL) {
            String n = d.name();
            if (n.length() != length) {
                continue;
            }
            for (int i = 0; i < length; i++) {
                if (n.charAt(i) != chars[offset + i]) {
                    continue search;
                }
            }
            return d;
        }
        return null;
    }

    /**
     * Bytes a tensor of this dtype and {@code shape} occupies: product of the dimensions × {@link #bitSize()} / 8.
     *
     * @throws ArithmeticException if the bit count does not fit a {@code long}
     * @throws IllegalArgumentException if a dimension is negative, or the elements do not fill whole bytes
     */
    public long byteCount(List<Long> shape) {
        long[] dims = dims(shape);
        return byteCount(dims, dims.length);
    }

    /** {@link #byteCount(List)} of the shape {@code shape[0 .. rank)}, without boxing (for header parsing). */
    long byteCount(long[] shape, int rank) {
        long bits = Math.multiplyExact(elementCount(shape, rank), (long) bitSize);
        if (bits % Byte.SIZE != 0) {
            throw new IllegalArgumentException("shape " + Arrays.toString(Arrays.copyOf(shape, rank)) + " × " + name()
                    + " is " + bits + " bits, not a whole number of bytes");
        }
        return bits / Byte.SIZE;
    }

    /** Number of elements of {@code shape}: the product of its dimensions, 1 for a scalar ({@code []}). */
    static long elementCount(List<Long> shape) {
        long[] dims = dims(shape);
        return elementCount(dims, dims.length);
    }

    private static long elementCount(long[] shape, int rank) {
        long count = 1;
        for (int i = 0; i < rank; i++) {
            long dim = shape[i];
            if (dim < 0) {
                throw new IllegalArgumentException("shape[" + i + "] must be non-negative, got " + dim + " in "
                        + Arrays.toString(Arrays.copyOf(shape, rank)));
            }
            count = Math.multiplyExact(count, dim);
        }
        return count;
    }

    private static long[] dims(List<Long> shape) {
        return shape.stream().mapToLong(Long::longValue).toArray();
    }
}
