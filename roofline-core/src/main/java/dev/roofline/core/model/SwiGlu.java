package dev.roofline.core.model;

import dev.roofline.core.internal.Checks;

import java.util.List;

/** {@code down(silu(gate(x)) · up(x))}: gate and up are {@code intermediateSize × H}, down is {@code H × intermediateSize}. */
public record SwiGlu(int intermediateSize) implements FeedForward {

    public SwiGlu {
        Checks.positive("intermediateSize", intermediateSize);
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
