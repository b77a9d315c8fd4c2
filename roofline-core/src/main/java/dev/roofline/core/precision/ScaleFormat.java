package dev.roofline.core.precision;

/** How a block or tensor scale factor is stored. */
public enum ScaleFormat {
    /** FP8 E4M3 scale (NVFP4's per-16-element block scale). */
    E4M3(8),
    /** 8-bit power of two, 2^(code-127) (OCP MX shared scale). */
    E8M0(8),
    /** IEEE half-precision scale. */
    FP16(16),
    /** IEEE single-precision scale (NVFP4's per-tensor scale, NF4's absmax). */
    FP32(32);

    private final int bits;

    ScaleFormat(int bits) {
        this.bits = bits;
    }

    public int bits() {
        return bits;
    }

    public int bytes() {
        return bits / 8;
    }
}
