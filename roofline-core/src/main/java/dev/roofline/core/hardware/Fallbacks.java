package dev.roofline.core.hardware;

import dev.roofline.core.precision.NumberKind;
import dev.roofline.core.precision.Precision;

import java.util.List;

/**
 * What a precision turns into when a GPU has no ceiling for it. Each list is tried in order; the first precision
 * the hardware has a ceiling for wins. FP32 (CUDA cores) is the last resort of every chain.
 */
final class Fallbacks {
    private Fallbacks() {}

    static List<Precision> of(Precision p) {
        return switch (p) {
            case FP64 -> List.of();
            case FP32 -> List.of();
            case TF32 -> List.of(Precision.FP32);
            case BF16 -> List.of(Precision.FP32);
            case FP16 -> List.of(Precision.FP32);
            // FP8 without FP8 tensor cores (A100): dequantize to 16 bits (as Marlin-style FP8 kernels do)
            case FP8_E4M3, FP8_E5M2 -> List.of(Precision.FP16, Precision.BF16, Precision.FP32);
            case INT8 -> List.of(Precision.FP16, Precision.BF16, Precision.FP32);
            // no INT4/INT2 tensor-core path on Hopper or Blackwell: W4A16 dequantize-then-FP16
            case INT4, INT4_G128, INT2 -> List.of(Precision.FP16, Precision.BF16, Precision.FP32);
            // MX FP8 without block-scaled MMA: FP8 tensor cores with the block scales applied in software
            case MXFP8_E4M3 -> List.of(Precision.FP8_E4M3, Precision.FP16, Precision.BF16, Precision.FP32);
            case MXFP8_E5M2 -> List.of(Precision.FP8_E5M2, Precision.FP16, Precision.BF16, Precision.FP32);
            case MXINT8 -> List.of(Precision.INT8, Precision.FP16, Precision.BF16, Precision.FP32);
            case NVFP4, MXFP4, MXFP6_E3M2, MXFP6_E2M3, NF4 -> List.of(Precision.FP16, Precision.BF16, Precision.FP32);
        };
    }

    /**
     * The precision the multiply must at least run in when the two operands differ: the wider operand decides
     * (W4A16 runs in FP16, W8A8 in 8 bits). Between equally wide floats of one family (FP8 E4M3 x E5M2) the
     * activations decide; between an integer and a float of equal width the float is used.
     */
    static Precision wider(Precision weights, Precision activations) {
        if (weights == activations) {
            return weights;
        }
        int w = weights.elementBits();
        int a = activations.elementBits();
        if (w != a) {
            return w > a ? weights : activations;
        }
        boolean wFloat = weights.kind() == NumberKind.FLOAT;
        boolean aFloat = activations.kind() == NumberKind.FLOAT;
        if (wFloat != aFloat) {
            return wFloat ? weights : activations;
        }
        return activations;
    }
}
