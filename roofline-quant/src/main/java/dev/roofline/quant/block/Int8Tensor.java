package dev.roofline.quant.block;

import dev.roofline.core.precision.Precision;

/**
 * INT8 with one symmetric scale per output channel (row): q = clamp(rint(x / s), −127, 127), s = amax(row) / 127
 * (1 for an all-zero row, never below 2^-126: {@link Scale}). Value = q · s.
 */
public record Int8Tensor(int rows, int cols, byte[] values, float[] scales) implements QuantizedTensor {

    public Int8Tensor {
        if (values.length != (long) rows * cols || scales.length != rows) {
            throw new IllegalArgumentException("INT8 " + rows + " x " + cols + " needs " + (long) rows * cols
                    + " values and " + rows + " scales, got " + values.length + " and " + scales.length);
        }
    }

    public static Int8Tensor quantizePerChannel(float[] w, int rows, int cols) {
        Shape.check(w, rows, cols);
        byte[] q = new byte[w.length];
        float[] scales = new float[rows];
        for (int r = 0; r < rows; r++) {
            float amax = Shape.absMax(w, r * cols, (r + 1) * cols);
            float s = Scale.of(amax, amax / 127f);
            scales[r] = s;
            for (int c = 0; c < cols; c++) {
                q[r * cols + c] = (byte) Math.clamp(Math.rint(w[r * cols + c] / s), -127, 127);
            }
        }
        return new Int8Tensor(rows, cols, q, scales);
    }

    @Override
    public Precision precision() {
        return Precision.INT8;
    }

    @Override
    public float[] dequantize() {
        float[] out = new float[values.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = values[i] * scales[i / cols];
        }
        return out;
    }

    @Override
    public long storageBytes() {
        return values.length + 4L * scales.length;
    }
}
