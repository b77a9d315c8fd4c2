package dev.roofline.cuda.blas;

/**
 * The bytes each operand buffer of a {@link Matmul} must hold at least, in each operand's stored precision (block
 * scales included).
 *
 * @param weights     the weight matrix W (N×K)
 * @param activations the activations X (M×K)
 * @param output      the output Y (M×N)
 */
public record OperandBytes(long weights, long activations, long output) {

    public OperandBytes {
        if (weights <= 0 || activations <= 0 || output <= 0) {
            throw new IllegalArgumentException("operand bytes must be positive, got weights " + weights
                    + ", activations " + activations + ", output " + output);
        }
    }

    /** All three together: what one set of operands occupies. */
    public long total() {
        return Math.addExact(Math.addExact(weights, activations), output);
    }
}
