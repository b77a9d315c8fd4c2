package dev.roofline.quant.block;

import dev.roofline.core.format.MiniFloat;
import dev.roofline.core.format.Overflow;
import dev.roofline.core.precision.Precision;

/**
 * FP8 (E4M3 or E5M2) with a float32 scale per tensor or per output channel: s = amax / max_finite (1 when amax is
 * 0, never below 2^-126: {@link Scale}), code = fp8(x / s) round-to-nearest-even, saturating. Value = fp8(code) · s.
 *
 * @param scales one scale (per tensor) or {@code rows} scales (per channel)
 */
public record Fp8Tensor(Precision precision, int rows, int cols, byte[] codes, float[] scales)
        implements QuantizedTensor {

    public Fp8Tensor {
        if (precision != Precision.FP8_E4M3 && precision != Precision.FP8_E5M2) {
            throw new IllegalArgumentException("precision must be FP8_E4M3 or FP8_E5M2, got " + precision);
        }
        if (codes.length != (long) rows * cols || (scales.length != 1 && scales.length != rows)) {
            throw new IllegalArgumentException("FP8 " + rows + " x " + cols + " needs " + (long) rows * cols
                    + " codes and 1 or " + rows + " scales, got " + codes.length + " and " + scales.length);
        }
    }

    public static Fp8Tensor quantize(Precision format, float[] w, int rows, int cols, boolean perChannel) {
        Shape.check(w, rows, cols);
        MiniFloat f = MiniFloat.of(format);
        float[] scales = new float[perChannel ? rows : 1];
        byte[] codes = new byte[w.length];
        for (int s = 0; s < scales.length; s++) {
            int from = perChannel ? s * cols : 0;
            int to = perChannel ? from + cols : w.length;
            float amax = Shape.absMax(w, from, to);
            float scale = Scale.of(amax, (float) (amax / f.maxFinite()));
            scales[s] = scale;
            for (int i = from; i < to; i++) {
                codes[i] = (byte) f.encode(w[i] / scale, Overflow.SATURATE);
            }
        }
        return new Fp8Tensor(format, rows, cols, codes, scales);
    }

    public boolean perChannel() {
        return scales.length == rows && rows > 1;
    }

    @Override
    public float[] dequantize() {
        MiniFloat f = MiniFloat.of(precision);
        float[] out = new float[codes.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) (f.decode(codes[i] & 0xFF) * scales[scales.length == 1 ? 0 : i / cols]);
        }
        return out;
    }

    @Override
    public long storageBytes() {
        return codes.length + 4L * scales.length;
    }
}
