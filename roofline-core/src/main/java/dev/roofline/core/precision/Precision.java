package dev.roofline.core.precision;

import dev.roofline.core.internal.Checks;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The number formats roofline reasons about: element encoding, block scaling and exact storage size.
 *
 * <pre>{@code
 * Precision p = Precision.parse("nvfp4");
 * long bytes = p.storageBytes(4096, 4096);   // 4096*4096/2 + 4096*4096/16 + 4
 * }</pre>
 *
 * Float formats follow IEEE 754 (FP64, FP32, FP16, BF16, TF32's 19 bits) and the OCP 8-bit floating point
 * specification and OCP Microscaling (MX) v1.0 specification (E4M3, E5M2, E3M2, E2M3, E2M1, E8M0);
 * NVFP4 follows NVIDIA's Blackwell documentation (E2M1 elements, one E4M3 scale per 16, one FP32 tensor scale);
 * NF4 follows bitsandbytes (QLoRA paper) without double quantization: one FP32 absmax per 64 elements, as
 * bitsandbytes stores it and roofline-quant writes it (4.5 bits per element).
 */
public enum Precision {
    FP64("FP64", NumberKind.FLOAT, 64, 11, 52, Specials.IEEE, null, "fp64", "float64", "f64", "double"),
    FP32("FP32", NumberKind.FLOAT, 32, 8, 23, Specials.IEEE, null, "fp32", "float32", "f32", "float", "single"),
    /** TensorFloat-32: FP32 storage, 10-bit mantissa inside the tensor core. */
    TF32("TF32", NumberKind.FLOAT, 32, 8, 10, Specials.IEEE, null, "tf32", "tensorfloat32"),
    BF16("BF16", NumberKind.FLOAT, 16, 8, 7, Specials.IEEE, null, "bf16", "bfloat16"),
    FP16("FP16", NumberKind.FLOAT, 16, 5, 10, Specials.IEEE, null, "fp16", "float16", "f16", "half"),
    FP8_E4M3(
            "FP8 E4M3",
            NumberKind.FLOAT,
            8,
            4,
            3,
            Specials.NAN_ONLY_ALL_ONES,
            null,
            "fp8",
            "e4m3",
            "fp8e4m3",
            "fp8e4m3fn",
            "float8e4m3",
            "float8e4m3fn",
            "f8e4m3"),
    FP8_E5M2("FP8 E5M2", NumberKind.FLOAT, 8, 5, 2, Specials.IEEE, null, "e5m2", "fp8e5m2", "float8e5m2", "f8e5m2"),
    INT8("INT8", NumberKind.INTEGER, 8, 0, 0, null, null, "int8", "i8", "s8"),
    INT4("INT4", NumberKind.INTEGER, 4, 0, 0, null, null, "int4", "i4", "s4"),
    /**
     * INT4 with one FP32 scale per 128 consecutive elements of a row (symmetric): weight-only INT4 as roofline-quant
     * writes it and roofline-cuda's GEMV reads it. 4.25 bits per element.
     */
    INT4_G128(
            "INT4 g128",
            NumberKind.INTEGER,
            4,
            0,
            0,
            null,
            new BlockScaling(128, ScaleFormat.FP32, BlockScaling.Layout.ROWS, null),
            "int4g128",
            "w4g128"),
    INT2("INT2", NumberKind.INTEGER, 2, 0, 0, null, null, "int2", "i2"),
    NVFP4(
            "NVFP4",
            NumberKind.FLOAT,
            4,
            2,
            1,
            Specials.NONE,
            new BlockScaling(16, ScaleFormat.E4M3, BlockScaling.Layout.ROWS, ScaleFormat.FP32),
            "nvfp4"),
    MXFP8_E4M3("MXFP8 E4M3", NumberKind.FLOAT, 8, 4, 3, Specials.NAN_ONLY_ALL_ONES, Mx.SCALING, "mxfp8", "mxfp8e4m3"),
    MXFP8_E5M2("MXFP8 E5M2", NumberKind.FLOAT, 8, 5, 2, Specials.IEEE, Mx.SCALING, "mxfp8e5m2"),
    MXFP6_E3M2("MXFP6 E3M2", NumberKind.FLOAT, 6, 3, 2, Specials.NONE, Mx.SCALING, "mxfp6e3m2"),
    MXFP6_E2M3("MXFP6 E2M3", NumberKind.FLOAT, 6, 2, 3, Specials.NONE, Mx.SCALING, "mxfp6e2m3"),
    MXFP4("MXFP4", NumberKind.FLOAT, 4, 2, 1, Specials.NONE, Mx.SCALING, "mxfp4", "mxfp4e2m1"),
    /** OCP MXINT8: 8-bit two's complement with an implicit scale of 2^-6, so elements lie in [-2, 127/64]. */
    MXINT8("MXINT8", NumberKind.INTEGER, 8, 0, 6, null, Mx.SCALING, "mxint8"),
    NF4(
            "NF4",
            NumberKind.CODEBOOK,
            4,
            0,
            0,
            null,
            new BlockScaling(64, ScaleFormat.FP32, BlockScaling.Layout.FLAT, null),
            "nf4",
            "normalfloat4");

    /** OCP MX v1.0: 32 elements share one E8M0 scale along the row. */
    private static final class Mx {
        static final BlockScaling SCALING = new BlockScaling(32, ScaleFormat.E8M0, BlockScaling.Layout.ROWS, null);
    }

    private static final Map<String, Precision> BY_NAME = new LinkedHashMap<>();
    private static final Map<String, String> AMBIGUOUS = Map.of(
            "fp4", "nvfp4 or mxfp4",
            "e2m1", "nvfp4 or mxfp4",
            "fp6", "mxfp6_e3m2 or mxfp6_e2m3",
            "mxfp6", "mxfp6_e3m2 or mxfp6_e2m3");

    static {
        for (Precision p : values()) {
            for (String alias : p.aliases) {
                if (BY_NAME.put(alias, p) != null) {
                    throw new ExceptionInInitializerError("duplicate precision alias " + alias);
                }
            }
        }
    }

    private final String displayName;
    private final NumberKind kind;
    private final int bits;
    private final int exponentBits;
    private final int mantissaBits;
    private final Specials specials;
    private final BlockScaling blockScaling;
    private final List<String> aliases;
    private final double maxFinite;

    Precision(
            String displayName,
            NumberKind kind,
            int bits,
            int exponentBits,
            int mantissaBits,
            Specials specials,
            BlockScaling blockScaling,
            String... aliases) {
        this.displayName = displayName;
        this.kind = kind;
        this.bits = bits;
        this.exponentBits = exponentBits;
        this.mantissaBits = mantissaBits;
        this.specials = specials;
        this.blockScaling = blockScaling;
        this.aliases = List.of(aliases);
        this.maxFinite = computeMaxFinite();
    }

    /**
     * The precision a user means by {@code name}: case, '-', '_', '.' and spaces are ignored
     * ({@code "FP8"}, {@code "e4m3"}, {@code "float8_e4m3fn"}, {@code "NVFP4"}, {@code "bfloat16"} …).
     *
     * @throws IllegalArgumentException naming the value and listing every known name
     */
    public static Precision parse(String name) {
        if (name == null) {
            throw new IllegalArgumentException("precision must not be null; known: " + knownNames());
        }
        String key = normalize(name);
        Precision p = BY_NAME.get(key);
        if (p != null) {
            return p;
        }
        String ambiguity = AMBIGUOUS.get(key);
        if (ambiguity != null) {
            throw new IllegalArgumentException("precision '" + name + "' is ambiguous: say " + ambiguity);
        }
        throw new IllegalArgumentException("unknown precision '" + name + "'; known: " + knownNames());
    }

    /** Every name {@link #parse} accepts, grouped by precision. */
    public static String knownNames() {
        return Arrays.stream(values()).map(p -> String.join("|", p.aliases)).collect(Collectors.joining(", "));
    }

    private static String normalize(String name) {
        return name.strip().toLowerCase(Locale.ROOT).replaceAll("[-_.\\s]", "");
    }

    /** Human-readable name, e.g. "FP8 E4M3". */
    public String displayName() {
        return displayName;
    }

    /** The names {@link #parse} accepts for this precision; the first is the canonical short name. */
    public List<String> aliases() {
        return aliases;
    }

    public String shortName() {
        return aliases.getFirst();
    }

    public NumberKind kind() {
        return kind;
    }

    /** Bits of one element, excluding any scale. */
    public int elementBits() {
        return bits;
    }

    /** Exponent bits of a float format; 0 otherwise. */
    public int exponentBits() {
        return exponentBits;
    }

    /** Explicit mantissa bits of a float format (for MXINT8: fraction bits of its fixed point); 0 otherwise. */
    public int mantissaBits() {
        return mantissaBits;
    }

    /** Exponent bias {@code 2^(e-1) - 1} of a float format. */
    public OptionalInt exponentBias() {
        return kind == NumberKind.FLOAT ? OptionalInt.of((1 << (exponentBits - 1)) - 1) : OptionalInt.empty();
    }

    /** Non-finite codes of a float format; empty for integer and codebook formats. */
    public Optional<Specials> specials() {
        return Optional.ofNullable(specials);
    }

    /** Largest finite element value (before any scale is applied). */
    public double maxFinite() {
        return maxFinite;
    }

    public Optional<BlockScaling> blockScaling() {
        return Optional.ofNullable(blockScaling);
    }

    public boolean isBlockScaled() {
        return blockScaling != null;
    }

    /** Element bits plus block-scale bits spread over the block (the per-tensor scale is not counted). */
    public double effectiveBitsPerElement() {
        return blockScaling == null
                ? bits
                : bits + (double) blockScaling.scale().bits() / blockScaling.blockSize();
    }

    /**
     * Exact bytes of a tensor of this shape, elements packed densely and every scale included: a partial block
     * still stores a scale, a per-tensor scale is stored once. This is the one byte rule of a format:
     * {@link #elementBytes} plus {@link #scaleBytes}.
     *
     * @param shape dimensions, each &gt; 0; blocks run along the last one (or over the flattened tensor for NF4)
     * @throws IllegalArgumentException when a dimension is not positive or the size overflows a long
     */
    public long storageBytes(long... shape) {
        return Checks.add(elementBytes(shape), scaleBytes(shape), () -> "bytes of shape " + Arrays.toString(shape));
    }

    /**
     * Bytes of the elements alone, packed densely: ceil(elements × {@link #elementBits} / 8).
     *
     * @throws IllegalArgumentException as {@link #storageBytes}
     */
    public long elementBytes(long... shape) {
        long elements = elementCount(shape);
        // ceil(elements * bits / 8) without overflowing on the intermediate product
        return Checks.add(
                Checks.multiply(elements / 8, bits, () -> "bytes of shape " + Arrays.toString(shape)),
                Math.ceilDiv((elements % 8) * bits, 8),
                () -> "bytes of shape " + Arrays.toString(shape));
    }

    /**
     * Bytes of every scale of such a tensor: the block scales plus the per-tensor scale ({@link #tensorScaleBytes});
     * 0 for a format without block scaling.
     *
     * @throws IllegalArgumentException as {@link #storageBytes}
     */
    public long scaleBytes(long... shape) {
        long elements = elementCount(shape);
        return blockScaling == null ? 0 : blockScaling.scaleBytes(elements, shape[shape.length - 1]);
    }

    /** Bytes of the single per-tensor scale that {@link #scaleBytes} includes (NVFP4: one FP32, 4 B); 0 if none. */
    public int tensorScaleBytes() {
        return blockScaling == null || blockScaling.tensorScale() == null
                ? 0
                : blockScaling.tensorScale().bytes();
    }

    private static long elementCount(long... shape) {
        if (shape == null || shape.length == 0) {
            throw new IllegalArgumentException("shape must have at least one dimension, got " + Arrays.toString(shape));
        }
        long elements = 1;
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] <= 0) {
                throw new IllegalArgumentException(
                        "shape[" + i + "] must be > 0, got " + shape[i] + " in " + Arrays.toString(shape));
            }
            elements = Checks.multiply(elements, shape[i], () -> "element count of shape " + Arrays.toString(shape));
        }
        return elements;
    }

    private double computeMaxFinite() {
        return switch (kind) {
            case INTEGER -> ((1L << (bits - 1)) - 1) / Math.scalb(1.0, mantissaBits);
            case CODEBOOK -> 1.0; // NF4's table is normalised to [-1, 1]
            case FLOAT -> {
                int bias = (1 << (exponentBits - 1)) - 1;
                int allOnes = (1 << exponentBits) - 1;
                yield switch (specials) {
                    // the all-ones exponent is reserved; the largest finite has the next exponent and a full mantissa
                    case IEEE -> Math.scalb(2.0 - Math.scalb(1.0, -mantissaBits), allOnes - 1 - bias);
                    // all-ones exponent is finite except the all-ones mantissa (NaN)
                    case NAN_ONLY_ALL_ONES -> Math.scalb(2.0 - Math.scalb(2.0, -mantissaBits), allOnes - bias);
                    case NONE -> Math.scalb(2.0 - Math.scalb(1.0, -mantissaBits), allOnes - bias);
                };
            }
        };
    }

    @Override
    public String toString() {
        return displayName;
    }
}
