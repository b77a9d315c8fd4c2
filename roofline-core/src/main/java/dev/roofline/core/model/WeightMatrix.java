package dev.roofline.core.model;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;

import java.util.function.Supplier;

/**
 * One weight matrix of a model, {@code outFeatures × inFeatures} as stored (PyTorch {@code nn.Linear} layout:
 * blocks of a block-scaled format run along {@code inFeatures}), present {@code count} times (once per layer, or per
 * layer and expert).
 */
public record WeightMatrix(String name, long outFeatures, long inFeatures, long count, Role role) {

    /** What the matrix is for, which decides how much of it one decode step reads. */
    public enum Role {
        /** The token embedding: a step reads only the rows of its tokens. */
        EMBEDDING,
        /** Read whole by every step: attention, dense MLP, shared experts, routers, LM head. */
        DENSE,
        /** A routed expert: read only when some token of the step is routed to it. */
        ROUTED_EXPERT
    }

    /** A matrix every step reads whole. */
    public WeightMatrix(String name, long outFeatures, long inFeatures, long count) {
        this(name, outFeatures, inFeatures, count, Role.DENSE);
    }

    public WeightMatrix {
        Checks.notBlank("name", name);
        Checks.notNull("role", role);
        Checks.positive("outFeatures", outFeatures);
        Checks.positive("inFeatures", inFeatures);
        Checks.positive("count", count);
    }

    /** Parameters of all {@code count} copies. */
    public long parameters() {
        Supplier<String> what = () -> "parameters of " + name;
        return Checks.multiply(Checks.multiply(outFeatures, inFeatures, what), count, what);
    }

    /** Bytes of all {@code count} copies stored in {@code p}, block scales included. */
    public long bytes(Precision p) {
        Checks.notNull("precision", p);
        return Checks.multiply(p.storageBytes(outFeatures, inFeatures), count, () -> "bytes of " + name);
    }
}
