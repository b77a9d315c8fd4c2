package dev.roofline.quant.block;

import dev.roofline.core.format.E8M0;
import dev.roofline.core.format.MiniFloat;
import dev.roofline.core.format.Overflow;
import dev.roofline.core.precision.Precision;

/**
 * OCP MX v1.0 quantization: per block of 32, shared scale X = 2^(floor(log2(amax)) − emax_elem) stored as E8M0,
 * elements = quantize(v / X) with round-to-nearest-even, clamped to the element format's largest normal.
 * emax_elem is the exponent of that largest value: 8 for E4M3, 15 for E5M2, 4 for E3M2, 2 for E2M3 and E2M1, 0 for
 * MXINT8. An all-zero block gets the smallest scale, 2^-127.
 */
public final class MxQuantizer {
    private MxQuantizer() {}

    public static MxTensor quantize(Precision format, float[] w, int rows, int cols) {
        if (format == null || !format.name().startsWith("MX")) {
            throw new IllegalArgumentException("format must be an MX format (MXFP8/MXFP6/MXFP4/MXINT8), got " + format);
        }
        Shape.check(w, rows, cols);
        int emaxElem = Math.getExponent(format.maxFinite());
        MiniFloat f = format == Precision.MXINT8 ? null : MiniFloat.of(format);
        int bpr = Math.ceilDiv(cols, MxTensor.BLOCK);
        byte[] codes = new byte[w.length];
        byte[] scales = new byte[rows * bpr];
        for (int r = 0; r < rows; r++) {
            for (int b = 0; b < bpr; b++) {
                int from = r * cols + b * MxTensor.BLOCK;
                int to = r * cols + Math.min(cols, (b + 1) * MxTensor.BLOCK);
                float amax = Shape.absMax(w, from, to);
                int scaleCode = amax == 0 ? 0 : E8M0.encodeExponent(Math.getExponent((double) amax) - emaxElem);
                scales[r * bpr + b] = (byte) scaleCode;
                double scale = E8M0.decode(scaleCode);
                for (int i = from; i < to; i++) {
                    double v = w[i] / scale;
                    codes[i] = (byte)
                            (f == null
                                    ? (int) Math.clamp(Math.rint(v * 64), -127, 127)
                                    : f.encode(v, Overflow.SATURATE));
                }
            }
        }
        return new MxTensor(format, rows, cols, codes, scales);
    }
}
