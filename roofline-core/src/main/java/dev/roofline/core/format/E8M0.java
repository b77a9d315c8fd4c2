package dev.roofline.core.format;

/**
 * OCP MX v1.0 E8M0 scale: an unsigned biased exponent, value 2^(code - 127); code 0xFF is NaN. No sign, no mantissa.
 */
public final class E8M0 {
    /** The code of 2^0 = 1. */
    public static final int BIAS = 127;

    public static final int NAN = 0xFF;

    private E8M0() {}

    /** 2^(code - 127), or NaN for 0xFF. */
    public static double decode(int code) {
        if (code < 0 || code > 0xFF) {
            throw new IllegalArgumentException("E8M0 code must be in [0, 255], got " + code);
        }
        return code == NAN ? Double.NaN : Math.scalb(1.0, code - BIAS);
    }

    /** The code of 2^exponent; exponents outside [-127, 127] are clamped (OCP: the scale saturates). */
    public static int encodeExponent(int exponent) {
        return Math.clamp(exponent + (long) BIAS, 0, 254);
    }
}
