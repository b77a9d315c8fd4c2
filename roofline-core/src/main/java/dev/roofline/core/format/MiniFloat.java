package dev.roofline.core.format;

import dev.roofline.core.precision.NumberKind;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.precision.Specials;

/**
 * Bit-exact codec for a small floating-point format (FP16, BF16, FP8 E4M3/E5M2, FP6 E2M3/E3M2, FP4 E2M1):
 * code = sign | exponent | mantissa, round-to-nearest-even, subnormals, and the format's own special values
 * (IEEE 754 for FP16/BF16/E5M2, OCP "fn" for E4M3, none for FP6/FP4).
 *
 * <pre>{@code
 * MiniFloat e4m3 = MiniFloat.of(Precision.FP8_E4M3);
 * int code = e4m3.encode(300.0, Overflow.SATURATE);   // 0x79 = 288 (300 lies between 288 and 320, nearer 288)
 * double v = e4m3.decode(0x7E);                        // 448
 * }</pre>
 */
public final class MiniFloat {
    private final Precision precision;
    private final int e;
    private final int m;
    private final int bias;
    private final Specials specials;
    private final int expMask;
    private final int maxFiniteCode;
    private final double maxFinite;

    private MiniFloat(Precision p) {
        this.precision = p;
        this.e = p.exponentBits();
        this.m = p.mantissaBits();
        this.bias = p.exponentBias().getAsInt();
        this.specials = p.specials().orElseThrow();
        this.expMask = (1 << e) - 1;
        int allOnesMantissa = (1 << m) - 1;
        this.maxFiniteCode = switch (specials) {
            case IEEE -> ((expMask - 1) << m) | allOnesMantissa;
            case NAN_ONLY_ALL_ONES -> (expMask << m) | (allOnesMantissa - 1);
            case NONE -> (expMask << m) | allOnesMantissa;
        };
        this.maxFinite = decode(maxFiniteCode);
    }

    /** The codec of an element format; block formats (NVFP4, MXFP4, MX FP6/FP8) use their element format's codec. */
    public static MiniFloat of(Precision p) {
        if (p == null) {
            throw new IllegalArgumentException("precision must not be null");
        }
        if (p.kind() != NumberKind.FLOAT || p.elementBits() > 16 || p == Precision.TF32) {
            throw new IllegalArgumentException("precision must be a float format of at most 16 bits, got " + p);
        }
        return new MiniFloat(p);
    }

    public Precision precision() {
        return precision;
    }

    /** Number of codes: 2^(1 + e + m). */
    public int codeCount() {
        return 1 << (1 + e + m);
    }

    public double maxFinite() {
        return maxFinite;
    }

    /** The value of {@code code} (NaN or ±infinity for special codes). */
    public double decode(int code) {
        if (code < 0 || code >= codeCount()) {
            throw new IllegalArgumentException(
                    "code must be in [0, " + (codeCount() - 1) + "] for " + precision + ", got " + code);
        }
        double sign = (code >> (e + m)) != 0 ? -1.0 : 1.0;
        int exp = (code >> m) & expMask;
        int mant = code & ((1 << m) - 1);
        if (exp == expMask) {
            if (specials == Specials.IEEE) {
                return mant == 0 ? sign * Double.POSITIVE_INFINITY : Double.NaN;
            }
            if (specials == Specials.NAN_ONLY_ALL_ONES && mant == (1 << m) - 1) {
                return Double.NaN;
            }
        }
        if (exp == 0) {
            return sign * Math.scalb((double) mant, 1 - bias - m);
        }
        return sign * Math.scalb(1.0 + Math.scalb((double) mant, -m), exp - bias);
    }

    /**
     * The code nearest to {@code value}, ties to even mantissa. NaN encodes to the format's NaN (an error for
     * FP6/FP4, which have none); infinities and values past the largest finite follow {@code overflow}.
     */
    public int encode(double value, Overflow overflow) {
        if (overflow == null) {
            throw new IllegalArgumentException(
                    "overflow must not be null: say Overflow.SATURATE or Overflow.NON_SATURATING");
        }
        int signBit = (Double.doubleToRawLongBits(value) < 0 ? 1 : 0) << (e + m);
        if (Double.isNaN(value)) {
            return switch (specials) {
                case IEEE -> (expMask << m) | (1 << (m - 1));
                case NAN_ONLY_ALL_ONES -> signBit | (expMask << m) | ((1 << m) - 1);
                case NONE -> throw new IllegalArgumentException(precision + " has no NaN: cannot encode NaN");
            };
        }
        double a = Math.abs(value);
        int minNormalExp = 1 - bias;
        int exp = a < Math.scalb(1.0, minNormalExp) ? minNormalExp : Math.getExponent(a);
        double quantum = Math.scalb(1.0, exp - m);
        double rounded = Double.isInfinite(a) ? a : Math.rint(a / quantum) * quantum; // rint: ties to even
        if (rounded > maxFinite) {
            return signBit | overflowCode(value, overflow);
        }
        if (rounded < Math.scalb(1.0, minNormalExp)) {
            return signBit | (int) (rounded / Math.scalb(1.0, minNormalExp - m)); // subnormal (or zero)
        }
        int re = Math.getExponent(rounded);
        int mant = (int) ((Math.scalb(rounded, -re) - 1.0) * (1 << m));
        return signBit | ((re + bias) << m) | mant;
    }

    private int overflowCode(double value, Overflow overflow) {
        if (overflow == Overflow.SATURATE) {
            return maxFiniteCode;
        }
        return switch (specials) {
            case IEEE -> expMask << m;
            case NAN_ONLY_ALL_ONES -> (expMask << m) | ((1 << m) - 1);
            case NONE ->
                throw new IllegalArgumentException(value + " is beyond " + precision + "'s largest finite value "
                        + maxFinite + " and the format has no infinity or NaN; use Overflow.SATURATE");
        };
    }

    @Override
    public String toString() {
        return "MiniFloat[" + precision + "]";
    }
}
