package dev.roofline.core.roofline;

/** Work the roofline model can price: FLOPs to do and bytes to move through DRAM. */
public sealed interface Operator permits Gemm, GroupedGemm, Attention, Elementwise {

    /** Short label for tables and plots. */
    String name();

    /** Floating-point (or integer) operations, a multiply-add counted as two. */
    long flops();

    /** Fewest DRAM bytes: every input read once, every output written once, scales included. */
    long bytes();
}
