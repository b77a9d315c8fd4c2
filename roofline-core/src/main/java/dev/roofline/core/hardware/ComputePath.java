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
 * @param wanted      the precision the multiply needed (the wider operand), which {@code ceiling} stands in for when
 *                    the path is not native
 * @param note        extra words appended to {@link #method()}, empty for none
 */
public record ComputePath(
        Precision weights,
        Precision activations,
        Ceiling ceiling,
        boolean nativePath,
        Precision wanted,
        String note,
        String hardwareName) {

    /** Short description, e.g. "FP8 E4M3 on tensor cores" or "no INT4 path on H100 SXM: INT4 converted to FP16, FP16 ceiling". */
    public String method() {
        Precision p = ceiling.precision();
        String unit = ceiling.unit() == Ceiling.Unit.TENSOR_CORE ? " tensor cores" : " on CUDA cores";
        String m;
        if (!nativePath) {
            m = "no " + wanted.displayName() + " path on " + hardwareName + ": " + operands() + " converted to "
                    + p.displayName() + ", " + p.displayName() + " ceiling";
        } else if (weights == activations || (weights == p && activations == p)) {
            m = operands() + unit;
        } else if (weights != p && activations != p) {
            m = operands() + ": both converted to " + p.displayName() + ", " + p.displayName() + unit;
        } else {
            Precision converted = weights == p ? activations : weights;
            String which = weights == p ? "activations" : "weights";
            m = operands() + ": " + converted.displayName() + " " + which + " converted to " + p.displayName() + ", "
                    + p.displayName() + unit;
        }
        return note.isEmpty() ? m : m + ", " + note;
    }

    private String operands() {
        return weights == activations
                ? weights.displayName()
                : "W " + weights.displayName() + " x A " + activations.displayName();
    }

    /** The same path priced at another ceiling (e.g. the 2:4-sparse one), with a note saying so. */
    public ComputePath at(Ceiling other, String why) {
        return new ComputePath(
                weights,
                activations,
                other,
                nativePath,
                wanted,
                note.isEmpty() ? why : note + ", " + why,
                hardwareName);
    }

    /** The precision the multiply-adds actually run in. */
    public Precision executedAs() {
        return ceiling.precision();
    }
}
