package dev.roofline.quant.block;

import dev.roofline.core.precision.Precision;

/**
 * INT4 with one scale (and, asymmetric, one zero point) per group of {@code groupSize} elements along a row.
 * Symmetric: s = amax / 7, q = clamp(rint(x / s), −8, 7), value = q · s. Asymmetric: s = (max − min) / 15,
 * z = clamp(rint(−min / s), 0, 15), q = clamp(rint(x / s) + z, 0, 15), value = (q − z) · s. Every scale
 * follows {@link Scale} (1 for a constant group, never below 2^-126). Codes are stored two per
 * byte as 4-bit two's complement (symmetric) or unsigned (asymmetric), element 2i in the low nibble.
 *
 * @param zeros one zero point per group, or {@code null} when symmetric
 */
public record Int4Tensor(int rows, int cols, int groupSize, byte[] packed, float[] scales, byte[] zeros)
        implements QuantizedTensor {

    public Int4Tensor {
        if (groupSize <= 0 || cols % groupSize != 0 || cols % 2 != 0) {
            throw new IllegalArgumentException("INT4 needs an even cols that is a multiple of groupSize > 0, got cols "
                    + cols + ", groupSize " + groupSize);
        }
        long groups = (long) rows * (cols / groupSize);
        if (packed.length != (long) rows * cols / 2
                || scales.length != groups
                || (zeros != null && zeros.length != groups)) {
            throw new IllegalArgumentException("INT4 " + rows + " x " + cols + " / " + groupSize + " needs "
                    + (long) rows * cols / 2 + " packed bytes and " + groups + " scales (and zero points)");
        }
    }

    public static Int4Tensor quantize(float[] w, int rows, int cols, int groupSize, boolean symmetric) {
        Shape.check(w, rows, cols);
        if (groupSize <= 0 || cols % groupSize != 0 || cols % 2 != 0) {
            throw new IllegalArgumentException(
                    "groupSize must be > 0 and divide an even cols, got groupSize " + groupSize + ", cols " + cols);
        }
        int groups = w.length / groupSize;
        float[] scales = new float[groups];
        byte[] zeros = symmetric ? null : new byte[groups];
        byte[] packed = new byte[w.length / 2];
        for (int g = 0; g < groups; g++) {
            int from = g * groupSize;
            float s;
            int z = 0;
            if (symmetric) {
                float amax = Shape.absMax(w, from, from + groupSize);
                s = Scale.of(amax, amax / 7f);
            } else {
                float min = Float.POSITIVE_INFINITY, max = Float.NEGATIVE_INFINITY;
                for (int i = from; i < from + groupSize; i++) {
                    min = Math.min(min, w[i]);
                    max = Math.max(max, w[i]);
                }
                float range = max - min; // may overflow a float when min and max have opposite signs
                s = Scale.of(range, Float.isFinite(range) ? range / 15f : (float) (((double) max - min) / 15));
                z = (int) Math.clamp(Math.rint(-min / s), 0, 15);
                zeros[g] = (byte) z;
            }
            scales[g] = s;
            for (int i = from; i < from + groupSize; i++) {
                int q = symmetric
                        ? (int) Math.clamp(Math.rint(w[i] / s), -8, 7)
                        : (int) Math.clamp(Math.rint(w[i] / s) + z, 0, 15);
                packed[i >>> 1] |= (byte) ((q & 0xF) << ((i & 1) * 4));
            }
        }
        return new Int4Tensor(rows, cols, groupSize, packed, scales, zeros);
    }

    /**
     * {@link Precision#INT4_G128} for symmetric groups of 128 (what {@link Quantizers} writes when K allows), so that
     * predictions count the FP32 group scales; otherwise the flat {@link Precision#INT4}: roofline-core has no
     * precision for groups of 64 or 32 or for zero points, and those scales go uncounted.
     */
    @Override
    public Precision precision() {
        return groupSize == 128 && zeros == null ? Precision.INT4_G128 : Precision.INT4;
    }

    /** The integer stored for element {@code i}: −8..7 symmetric, 0..15 asymmetric. */
    public int code(int i) {
        int nibble = (packed[i >>> 1] >> ((i & 1) * 4)) & 0xF;
        return zeros == null ? (nibble << 28) >> 28 : nibble;
    }

    @Override
    public float[] dequantize() {
        float[] out = new float[rows * cols];
        for (int i = 0; i < out.length; i++) {
            int g = i / groupSize;
            int z = zeros == null ? 0 : zeros[g];
            out[i] = (code(i) - z) * scales[g];
        }
        return out;
    }

    @Override
    public long storageBytes() {
        return packed.length + 4L * scales.length + (zeros == null ? 0 : zeros.length);
    }
}
