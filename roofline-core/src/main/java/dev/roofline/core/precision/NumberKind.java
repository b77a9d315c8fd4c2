package dev.roofline.core.precision;

/** What an element's bits encode. */
public enum NumberKind {
    /** Sign, exponent and mantissa. */
    FLOAT,
    /** Two's-complement integer. */
    INTEGER,
    /** Index into a fixed table of values (NF4). */
    CODEBOOK
}
