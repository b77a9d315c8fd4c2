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
     * activations decide; between an integer and a float of equal width the float is used. Below 16 bits the other
     * operand must convert to it exactly (INT4 and INT4 g128 into INT8 or FP8, E2M1 into FP8): when it does not
     * (NVFP4 or NF4 weights with INT8 activations, INT8 with FP8), both are multiplied as FP16, which holds every
     * format of 8 bits or fewer.
     */
    static Precision wider(Precision weights, Precision activations) {
        if (weights == activations) {
            return weights;
        }
        int w = weights.elementBits();
        int a = activations.elementBits();
        Precision wide;
        if (w != a) {
            wide = w > a ? weights : activations;
        } else {
            boolean wFloat = weights.kind() == NumberKind.FLOAT;
            boolean aFloat = activations.kind() == NumberKind.FLOAT;
            wide = wFloat != aFloat ? (wFloat ? weights : activations) : activations;
        }
        Precision narrow = wide == weights ? activations : weights;
        if (wide.elementBits() >= 16 || sameFloatFamily(wide, narrow) || holdsExactly(wide, narrow)) {
            return wide;
        }
        return Precision.FP16;
    }

    /** FP8 E4M3 x E5M2 (plain or MX): tensor cores with FP8 multiply the two encodings together. */
    private static boolean sameFloatFamily(Precision a, Precision b) {
        return a.kind() == NumberKind.FLOAT
                && b.kind() == NumberKind.FLOAT
                && a.elementBits() == 8
                && b.elementBits() == 8
                && a.isBlockScaled() == b.isBlockScaled();
    }

    /**
     * True when every element value of {@code from} is a value of {@code to} (block scales aside: kernels apply them
     * per block). Integers need their magnitude bits within the float's significand and range; floats need no more
     * mantissa bits and a range inside the wider one's; a codebook (NF4) converts exactly into nothing narrower than
     * 16 bits, nor does a float into an integer.
     */
    static boolean holdsExactly(Precision to, Precision from) {
        if (to == from) {
            return true;
        }
        return switch (from.kind()) {
            case CODEBOOK -> false;
            case INTEGER ->
                switch (to.kind()) {
                    // two's-complement integers with f fraction bits: range and resolution must both fit
                    case INTEGER ->
                        from.elementBits() - from.mantissaBits() <= to.elementBits() - to.mantissaBits()
                                && from.mantissaBits() <= to.mantissaBits();
                    case FLOAT ->
                        from.elementBits() - 1 <= to.mantissaBits() + 1
                                && from.maxFinite() + Math.scalb(1.0, -from.mantissaBits()) <= to.maxFinite()
                                && Math.scalb(1.0, -from.mantissaBits()) >= smallestSubnormal(to);
                    case CODEBOOK -> false;
                };
            case FLOAT ->
                to.kind() == NumberKind.FLOAT
                        && from.mantissaBits() <= to.mantissaBits()
                        && from.maxFinite() <= to.maxFinite()
                        && smallestSubnormal(from) >= smallestSubnormal(to);
        };
    }

    /** 2^(1 − bias − mantissa bits): the smallest positive value of a float format. */
    private static double smallestSubnormal(Precision p) {
        return Math.scalb(1.0, 1 - p.exponentBias().orElseThrow() - p.mantissaBits());
    }
}
