package dev.roofline.core.format;

/**
 * FP4 E2M1 element coding on the hot path: magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6 with round-half-to-even
 * (ties at 0.25, 1.25, 2.5 and 5 round down, at 0.75, 1.75 and 3.5 up), saturating at 6; bit 3 is the sign.
 * Gives the code of {@code MiniFloat.of(Precision.MXFP4).encode(x, Overflow.SATURATE)} for every input except two,
 * without its generality: −0.0 encodes to 0 here (0x8 there), and NaN to 0 here (an error there: FP4 has no NaN).
 *
 * <pre>{@code
 * int code = E2M1.encode(-2.6f);   // 0xD: -3 (2.6 lies between 2 and 3, nearer 3)
 * float v = E2M1.decode(0x7);      // 6
 * }</pre>
 */
public final class E2M1 {
    private E2M1() {}

    private static final float[] VALUES = {
        0f, 0.5f, 1f, 1.5f, 2f, 3f, 4f, 6f, -0f, -0.5f, -1f, -1.5f, -2f, -3f, -4f, -6f
    };

    /** Code of {@code x} (already divided by its scale); the sign bit follows {@code x < 0}. */
    public static int encode(float x) {
        float m = Math.abs(x);
        int code = (m > 0.25f ? 1 : 0)
                + (m >= 0.75f ? 1 : 0)
                + (m > 1.25f ? 1 : 0)
                + (m >= 1.75f ? 1 : 0)
                + (m > 2.5f ? 1 : 0)
                + (m >= 3.5f ? 1 : 0)
                + (m > 5f ? 1 : 0);
        return x < 0 ? code | 8 : code;
    }

    /** The value of the low 4 bits of {@code code}. */
    public static float decode(int code) {
        return VALUES[code & 0xF];
    }
}
