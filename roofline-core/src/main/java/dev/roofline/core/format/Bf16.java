package dev.roofline.core.format;

/**
 * BF16 (bfloat16) on the hot path: a BF16 code is the upper 16 bits of a float32. Decoding is exact; encoding rounds
 * to nearest, ties to even, overflows to infinity as IEEE 754 does, and keeps a NaN's sign and top payload bits
 * (quieted). For every float but NaN it gives the code of
 * {@code MiniFloat.of(Precision.BF16).encode(x, Overflow.NON_SATURATING)} (checked in tests).
 *
 * <pre>{@code
 * short code = Bf16.encode(1f);       // 0x3F80
 * float v = Bf16.decode((short) 0xC000); // -2
 * }</pre>
 */
public final class Bf16 {
    private Bf16() {}

    /** The float whose upper 16 bits are {@code code} (exact). */
    public static float decode(short code) {
        return Float.intBitsToFloat(code << 16);
    }

    /** The code nearest to {@code x}, ties to the even code; NaN stays NaN with its sign. */
    public static short encode(float x) {
        int bits = Float.floatToRawIntBits(x);
        if (Float.isNaN(x)) {
            return (short) ((bits >>> 16) | 0x40);
        }
        // add just under half a BF16 step plus the kept lowest bit, then drop the 16 lower bits (a carry moves to
        // the exponent, and past the largest finite value to infinity)
        int rounded = bits + 0x7FFF + ((bits >>> 16) & 1);
        return (short) (rounded >>> 16);
    }
}
