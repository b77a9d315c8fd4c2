package dev.roofline.quant.block;

import dev.roofline.core.precision.Precision;

import java.util.List;

/**
 * One default weight quantizer per format, for comparing formats on the same weights: NVFP4 as ModelOpt does it,
 * OCP MX formats, INT8 per channel, INT4 symmetric with groups of 128 (64 or 32 when K is not a multiple), NF4,
 * and FP8 E4M3/E5M2 per channel.
 */
public final class Quantizers {
    private Quantizers() {}

    /** The formats {@link #quantize} supports, from the most to the fewest bits. */
    public static final List<Precision> SUPPORTED = List.of(
            Precision.FP8_E4M3,
            Precision.FP8_E5M2,
            Precision.MXFP8_E4M3,
            Precision.MXFP8_E5M2,
            Precision.INT8,
            Precision.MXINT8,
            Precision.MXFP6_E3M2,
            Precision.MXFP6_E2M3,
            Precision.NVFP4,
            Precision.MXFP4,
            Precision.INT4,
            Precision.NF4);

    /** Whether {@code format} can hold a rows × cols matrix (NVFP4 needs K % 16 == 0, INT4 an even K with a group). */
    public static boolean fits(Precision format, int cols) {
        return switch (format) {
            case NVFP4 -> cols % Nvfp4Tensor.BLOCK == 0;
            case INT4 -> int4Group(cols) > 0;
            default -> SUPPORTED.contains(format);
        };
    }

    public static QuantizedTensor quantize(Precision format, float[] w, int rows, int cols) {
        return switch (format) {
            case NVFP4 -> Nvfp4Quantizer.modelOpt().quantize(w, rows, cols);
            case MXFP8_E4M3, MXFP8_E5M2, MXFP6_E3M2, MXFP6_E2M3, MXFP4, MXINT8 ->
                MxQuantizer.quantize(format, w, rows, cols);
            case INT8 -> Int8Tensor.quantizePerChannel(w, rows, cols);
            case INT4 -> {
                int group = int4Group(cols);
                if (group == 0) {
                    throw new IllegalArgumentException("INT4 needs K (cols) divisible by 32, 64 or 128, got " + cols);
                }
                yield Int4Tensor.quantize(w, rows, cols, group, true);
            }
            case NF4 -> Nf4Tensor.quantize(w, rows, cols);
            case FP8_E4M3, FP8_E5M2 -> Fp8Tensor.quantize(format, w, rows, cols, true);
            default ->
                throw new IllegalArgumentException("no weight quantizer for " + format + "; supported: " + SUPPORTED);
        };
    }

    private static int int4Group(int cols) {
        for (int g : new int[] {128, 64, 32}) {
            if (cols % g == 0) {
                return g;
            }
        }
        return 0;
    }
}
