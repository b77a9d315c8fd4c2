package dev.roofline.core.format;

import dev.roofline.core.precision.Precision;

/**
 * FP8 E4M3 for positive scale factors on the hot path (NVFP4's block scales): round-to-nearest-even on the float's
 * bits, saturating at 448; decoding through a table of the 127 finite positive values. Gives the code of
 * {@code MiniFloat.of(Precision.FP8_E4M3).encode(s, Overflow.SATURATE)} for every float (checked in tests).
 *
 * <pre>{@code
 * int code = E4M3Scale.encode(0.171875f);  // 0x23: 1.375 x 2^-3
 * float s = E4M3Scale.decode(0x7E);        // 448
 * }</pre>
 */
public final class E4M3Scale {
    private E4M3Scale() {}

    private static final MiniFloat CODEC = MiniFloat.of(Precision.FP8_E4M3);
    /** VALUES[c] = value of code c for c in 0..126 (0x7F is NaN). */
    private static final float[] VALUES = new float[127];

    static {
        for (int c = 0; c < VALUES.length; c++) {
            VALUES[c] = (float) CODEC.decode(c);
        }
    }

    /** The code of the positive finite {@code s}, nearest with ties to even, saturating at 448 (0x7E). */
    public static int encode(float s) {
        if (!(s > 0) || Float.isInfinite(s)) {
            return s > 0 ? 126 : CODEC.encode(s, Overflow.SATURATE);
        }
        if (s < 0x1p-6f) {
            return (int) Math.rint(s * 512f); // subnormal step 2^-9; rounding up to 8 is the smallest normal
        }
        int bits = Float.floatToRawIntBits(s);
        // round the float's exponent and top 3 mantissa bits to nearest, ties to even, without a branch: add just
        // under half an E4M3 step plus the kept lowest bit, then drop the 20 lower bits (a carry moves to the exponent)
        int rounded = (bits + 0x7FFFF + ((bits >>> 20) & 1)) >>> 20;
        return Math.min(rounded - ((127 - 7) << 3), 126); // rebias 127 -> 7; beyond 448 saturates
    }

    /** The value of a finite positive code, 0 to 126 (0x7E = 448). */
    public static float decode(int code) {
        return VALUES[code];
    }
}
