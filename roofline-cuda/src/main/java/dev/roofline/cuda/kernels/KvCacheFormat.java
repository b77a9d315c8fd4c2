package dev.roofline.cuda.kernels;

import dev.roofline.core.format.MiniFloat;
import dev.roofline.core.format.Overflow;
import dev.roofline.core.precision.Precision;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How the decoder's KV cache stores keys and values: FP16, BF16 or FP8 E4M3 elements and, for FP8, one scale for the
 * keys and one for the values of every layer, vLLM's {@code k_scale}/{@code v_scale} convention: a stored code times
 * its scale is the value, so a value is stored as {@code value / scale} rounded to nearest even, saturating at ±448.
 * 16-bit caches hold values unscaled (their scales are 1).
 *
 * <pre>{@code
 * KvCacheFormat kv = KvCacheFormat.fp8(0.5f, 0.25f); // keys up to ±224, values up to ±112
 * double stored = kv.roundKey(3.1);                   // 3.0: 6.2 / 0.5 rounds to the E4M3 code 6.0
 * }</pre>
 *
 * @param keyScale   the keys' dequantization scale (1 for 16-bit caches)
 * @param valueScale the values' dequantization scale (1 for 16-bit caches)
 */
public record KvCacheFormat(Precision precision, float keyScale, float valueScale) {
    /** Precisions the decode kernels store a cache in. */
    public static final List<Precision> PRECISIONS = List.of(Precision.FP16, Precision.BF16, Precision.FP8_E4M3);

    public static final KvCacheFormat FP16 = new KvCacheFormat(Precision.FP16, 1f, 1f);
    public static final KvCacheFormat BF16 = new KvCacheFormat(Precision.BF16, 1f, 1f);

    /** Each precision's codec, made once: the reference rounds every key and value it caches through one. */
    private static final Map<Precision, MiniFloat> CODECS = new EnumMap<>(Precision.class);

    static {
        for (Precision p : PRECISIONS) {
            CODECS.put(p, MiniFloat.of(p));
        }
    }

    public KvCacheFormat {
        if (precision == null) {
            throw new IllegalArgumentException("precision must not be null");
        }
        if (!PRECISIONS.contains(precision)) {
            throw new IllegalArgumentException(
                    "the KV cache is stored in " + PRECISIONS + "; " + precision + " is not built");
        }
        scale("keyScale", keyScale);
        scale("valueScale", valueScale);
        if (precision != Precision.FP8_E4M3 && (keyScale != 1f || valueScale != 1f)) {
            throw new IllegalArgumentException("a " + precision + " cache holds values unscaled: keyScale and"
                    + " valueScale must be 1, got " + keyScale + " and " + valueScale);
        }
    }

    /** An FP8 E4M3 cache with these dequantization scales. */
    public static KvCacheFormat fp8(float keyScale, float valueScale) {
        return new KvCacheFormat(Precision.FP8_E4M3, keyScale, valueScale);
    }

    /** The cache in {@code precision}, FP8 with scales of 1 (values up to ±448 stored as they are). */
    public static KvCacheFormat of(Precision precision) {
        return new KvCacheFormat(precision, 1f, 1f);
    }

    /** Bytes of one stored element: 2, or 1 for FP8. */
    public int elementBytes() {
        return precision.elementBits() / 8;
    }

    /** The suffix of the kernels built for this element type. */
    String kernelSuffix() {
        return switch (precision) {
            case FP16 -> "f16";
            case BF16 -> "bf16";
            default -> "e4m3";
        };
    }

    /** The value a key of {@code value} reads back as from this cache (what the GPU stores, dequantized). */
    public double roundKey(double value) {
        return round(value, keyScale);
    }

    /** The value a value of {@code value} reads back as from this cache. */
    public double roundValue(double value) {
        return round(value, valueScale);
    }

    private double round(double value, float scale) {
        MiniFloat codec = CODECS.get(precision);
        return codec.decode(codec.encode(value / scale, Overflow.SATURATE)) * scale;
    }

    @Override
    public String toString() {
        return precision == Precision.FP8_E4M3 && (keyScale != 1f || valueScale != 1f)
                ? String.format(Locale.ROOT, "%s (k scale %s, v scale %s)", precision, keyScale, valueScale)
                : precision.toString();
    }

    private static void scale(String name, float v) {
        if (!(v > 0) || Float.isInfinite(v)) {
            throw new IllegalArgumentException(name + " must be positive and finite, got " + v);
        }
    }
}
