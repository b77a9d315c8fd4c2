package dev.roofline.core.precision;

/** Which codes of a floating-point format are not finite numbers. */
public enum Specials {
    /** IEEE 754: the all-ones exponent holds infinities and NaNs. */
    IEEE,
    /** "fn" formats (FP8 E4M3): no infinities; only all-ones exponent with all-ones mantissa is NaN. */
    NAN_ONLY_ALL_ONES,
    /** Every code is a finite number (FP4 E2M1, FP6 E2M3 and E3M2). */
    NONE
}
