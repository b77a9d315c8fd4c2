package dev.roofline.core.hardware;

import dev.roofline.core.precision.Precision;

/**
 * How a hardware multiplies operands of given precisions: natively, or by converting them to a precision it has
 * a ceiling for (e.g. INT4 weights on Hopper: dequantized, then FP16 tensor-core math). Bytes are still counted at
 * the stored precision; only the arithmetic ceiling changes.
 *
 * @param weights     stored precision of the weights (B operand)
 * @param activations stored precision of the activations (A operand)
 * @param ceiling     the ceiling the arithmetic runs at
 * @param nativePath  true when the hardware multiplies the stored precision directly
 * @param method      short description, e.g. "native FP8 E4M3 tensor cores" or "W4A16: dequantize INT4 to FP16"
 */
public record ComputePath(Precision weights, Precision activations, Ceiling ceiling, boolean nativePath, String method) {

    /** The precision the multiply-adds actually run in. */
    public Precision executedAs() {
        return ceiling.precision();
    }
}
