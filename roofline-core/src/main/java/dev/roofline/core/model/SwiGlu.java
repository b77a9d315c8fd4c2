package dev.roofline.core.model;

import dev.roofline.core.internal.Checks;

import java.util.List;

/**
 * {@code down(silu(gate(x)) · up(x))}: gate and up are {@code intermediateSize × H}, down is
 * {@code H × intermediateSize}. With {@code gelu} the gate goes through GELU (tanh approximation) instead: GeGLU, as
 * Gemma's {@code gelu_pytorch_tanh}; the matrices are the same.
 */
public record SwiGlu(int intermediateSize, boolean gelu) implements FeedForward {

    public SwiGlu {
        Checks.positive("intermediateSize", intermediateSize);
    }

    /** The SiLU-gated MLP. */
    public SwiGlu(int intermediateSize) {
        this(intermediateSize, false);
    }

    static List<WeightMatrix> matrices(
            String prefix, long hidden, long intermediate, long count, WeightMatrix.Role role) {
        return List.of(
                new WeightMatrix(prefix + "gate_proj", intermediate, hidden, count, role),
                new WeightMatrix(prefix + "up_proj", intermediate, hidden, count, role),
                new WeightMatrix(prefix + "down_proj", hidden, intermediate, count, role));
    }

    @Override
    public List<WeightMatrix> matrices(long hiddenSize, long layers) {
        return matrices("", hiddenSize, intermediateSize, layers, WeightMatrix.Role.DENSE);
    }

    @Override
    public List<WeightMatrix> activeMatrices(long hiddenSize, long layers) {
        return matrices(hiddenSize, layers);
    }

    @Override
    public long vectorParameters(long hiddenSize, long layers) {
        return 0;
    }
}
