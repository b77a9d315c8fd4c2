package dev.roofline.core.recommend;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Workload;

/** Precisions for weights, activations and the KV cache. */
public record Choice(Precision weights, Precision activations, Precision kvCache) {

    public Choice {
        Checks.notNull("weights", weights);
        Checks.notNull("activations", activations);
        Checks.notNull("kvCache", kvCache);
    }

    public static final Choice FP16 = new Choice(Precision.FP16, Precision.FP16, Precision.FP16);

    Workload applyTo(Workload w) {
        return w.withWeights(weights).withActivations(activations).withKvCache(kvCache);
    }

    /** Bits summed over the three, a proxy for accuracy when two choices are equally fast. */
    double bits() {
        return weights.effectiveBitsPerElement()
                + activations.effectiveBitsPerElement()
                + kvCache.effectiveBitsPerElement();
    }

    /** e.g. "W NVFP4, A FP16, KV FP8 E4M3". */
    public String label() {
        return "W " + weights.displayName() + ", A " + activations.displayName() + ", KV " + kvCache.displayName();
    }

    @Override
    public String toString() {
        return label();
    }
}
