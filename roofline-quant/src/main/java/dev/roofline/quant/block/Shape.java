package dev.roofline.quant.block;

/** Checks shared by the quantizers. */
final class Shape {
    private Shape() {}

    /** Dimensions only; the caller checks finiteness (e.g. through an absolute maximum that is not finite). */
    static void checkShape(float[] values, int rows, int cols) {
        if (values == null) {
            throw new IllegalArgumentException("values must not be null");
        }
        checkLength(values.length, rows, cols);
    }

    /** {@code length} values make a rows × cols matrix (for inputs that are not float arrays, e.g. BF16 bits). */
    static void checkLength(int length, int rows, int cols) {
        if (rows <= 0 || cols <= 0) {
            throw new IllegalArgumentException("rows and cols must be > 0, got " + rows + " x " + cols);
        }
        if ((long) rows * cols != length) {
            throw new IllegalArgumentException("values has " + length + " elements, expected rows x cols = " + rows
                    + " x " + cols + " = " + (long) rows * cols);
        }
    }

    /** Throws naming the first value that is not finite. */
    static void rejectNonFinite(float[] values) {
        for (int i = 0; i < values.length; i++) {
            if (!Float.isFinite(values[i])) {
                throw new IllegalArgumentException(
                        "values[" + i + "] is " + values[i] + ": only finite values can be quantized");
            }
        }
    }

    static void check(float[] values, int rows, int cols) {
        checkShape(values, rows, cols);
        rejectNonFinite(values);
    }

    static float absMax(float[] v, int from, int to) {
        float m = 0;
        for (int i = from; i < to; i++) {
            m = Math.max(m, Math.abs(v[i]));
        }
        return m;
    }
}
