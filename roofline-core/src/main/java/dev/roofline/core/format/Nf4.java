package dev.roofline.core.format;

/**
 * The NF4 codebook of bitsandbytes (QLoRA, Dettmers et al. 2023): 16 quantiles of a standard normal distribution
 * normalised to [-1, 1], with an exact zero. Values as float32, as bitsandbytes' kernels hard-code them.
 */
public final class Nf4 {
    private Nf4() {}

    private static final float[] VALUES = {
        -1.0f,
        -0.6961928009986877f,
        -0.5250730514526367f,
        -0.39491748809814453f,
        -0.28444138169288635f,
        -0.18477343022823334f,
        -0.09105003625154495f,
        0.0f,
        0.07958029955625534f,
        0.16093020141124725f,
        0.24611230194568634f,
        0.33791524171829224f,
        0.44070982933044434f,
        0.5626170039176941f,
        0.7229568362236023f,
        1.0f
    };

    /** The value of a 4-bit code. */
    public static float decode(int code) {
        if (code < 0 || code > 15) {
            throw new IllegalArgumentException("NF4 code must be in [0, 15], got " + code);
        }
        return VALUES[code];
    }

    /** The code whose value is nearest to {@code x} (x normalised to [-1, 1]; ties go to the lower code). */
    public static int encode(float x) {
        int lo = 0;
        int hi = 15;
        while (hi - lo > 1) { // binary search for the bracketing pair
            int mid = (lo + hi) >>> 1;
            if (VALUES[mid] <= x) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (x - VALUES[lo] <= VALUES[hi] - x) ? lo : hi;
    }
}
