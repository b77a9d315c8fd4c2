package dev.roofline.quant.block;

/**
 * The one rule for every float scale this package writes (FP8, INT8, INT4, NVFP4's global scale): 1 when the values
 * it scales are all zero, otherwise their absolute maximum over the format's largest value, but never below the
 * smallest normal float ({@link Float#MIN_NORMAL}, 2^-126). Weights of tiny magnitude (max|w| under about 10^-35, or
 * subnormal) would otherwise get a scale that underflows to 0 or to a subnormal with few significant bits: dividing
 * by it writes NaN or saturated codes, and its reciprocal (compressed-tensors stores 1 / scale) is infinite. With the
 * floor a scale and its reciprocal (at most 2^126) are finite, every x / scale is at most the format's largest value,
 * and the error stays within half a step of the format's grid times the scale; values below that step become 0.
 */
final class Scale {
    private Scale() {}

    /**
     * @param amax     the largest |x| the scale covers (0 when all are zero)
     * @param quotient amax divided by the format's largest value, in the caller's arithmetic
     */
    static float of(float amax, float quotient) {
        return amax == 0 ? 1f : Math.max(quotient, Float.MIN_NORMAL);
    }
}
