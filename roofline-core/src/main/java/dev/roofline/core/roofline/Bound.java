package dev.roofline.core.roofline;

/** Which ceiling limits an operator: DRAM bandwidth or arithmetic peak. */
public enum Bound {
    MEMORY,
    COMPUTE
}
