package dev.roofline.core.format;

/** What encoding does with a value beyond the largest finite one. */
public enum Overflow {
    /** Clamp to the largest finite value of the right sign. */
    SATURATE,
    /** Infinity where the format has one (E5M2), NaN where it only has NaN (E4M3); an error where it has neither. */
    NON_SATURATING
}
