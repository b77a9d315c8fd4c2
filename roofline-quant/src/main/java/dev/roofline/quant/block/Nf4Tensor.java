package dev.roofline.quant.block;

import dev.roofline.core.format.Nf4;
import dev.roofline.core.precision.Precision;

/**
 * NF4 as bitsandbytes stores it: the flattened tensor in blocks of 64, one absmax per block (float32, as
 * bitsandbytes keeps it without double quantization), codes = nearest NF4 value of x / absmax, two per byte with the
 * FIRST element in the HIGH nibble. Value = nf4(code) · absmax.
 */
public record Nf4Tensor(int rows, int cols, byte[] packed, float[] absmax) implements QuantizedTensor {
    public static final int BLOCK = 64;

    public Nf4Tensor {
        long n = (long) rows * cols;
        if (packed.length != Math.ceilDiv(n, 2) || absmax.length != Math.ceilDiv(n, BLOCK)) {
            throw new IllegalArgumentException("NF4 " + rows + " x " + cols + " needs " + Math.ceilDiv(n, 2)
                    + " packed bytes and " + Math.ceilDiv(n, BLOCK) + " absmax values, got " + packed.length + " and "
                    + absmax.length);
        }
    }

    public static Nf4Tensor quantize(float[] w, int rows, int cols) {
        Shape.check(w, rows, cols);
        float[] absmax = new float[Math.ceilDiv(w.length, BLOCK)];
        byte[] packed = new byte[Math.ceilDiv(w.length, 2)];
        for (int b = 0; b < absmax.length; b++) {
            int from = b * BLOCK;
            int to = Math.min(w.length, from + BLOCK);
            float m = Shape.absMax(w, from, to);
            absmax[b] = m;
            for (int i = from; i < to; i++) {
                int code = Nf4.encode(m == 0 ? 0f : w[i] / m);
                packed[i >>> 1] |= (byte) ((i & 1) == 0 ? code << 4 : code);
            }
        }
        return new Nf4Tensor(rows, cols, packed, absmax);
    }

    @Override
    public Precision precision() {
        return Precision.NF4;
    }

    public int code(int i) {
        int b = packed[i >>> 1] & 0xFF;
        return (i & 1) == 0 ? b >>> 4 : b & 0xF;
    }

    @Override
    public float[] dequantize() {
        float[] out = new float[rows * cols];
        for (int i = 0; i < out.length; i++) {
            out[i] = Nf4.decode(code(i)) * absmax[i / BLOCK];
        }
        return out;
    }

    @Override
    public long storageBytes() {
        return Precision.NF4.storageBytes((long) rows * cols);
    }
}
