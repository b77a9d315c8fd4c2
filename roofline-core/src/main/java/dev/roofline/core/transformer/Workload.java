package dev.roofline.core.transformer;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;

/**
 * What the model is asked to do: a phase, {@code batch} sequences and a context of {@code contextTokens} tokens,
 * with separate precisions for weights, activations and the KV cache.
 * <ul>
 *   <li>Prefill: each sequence's {@code contextTokens} prompt tokens go through the model at once and attend to each
 *   other (full S × S scores, no causal skipping); logits are computed for the last token only.</li>
 *   <li>Decode: each sequence produces one token that attends to {@code contextTokens} cached tokens (itself included).</li>
 * </ul>
 *
 * <pre>{@code
 * Workload w = Workload.decode(1, 4096).withWeights(Precision.NVFP4).withKvCache(Precision.FP8_E4M3);
 * }</pre>
 *
 * @param flashAttention fused attention without an S × S score matrix in DRAM (default); false materialises the
 *                       scores, softmax reading and writing them
 */
public record Workload(
        Phase phase,
        long batch,
        long contextTokens,
        Precision weights,
        Precision activations,
        Precision kvCache,
        boolean flashAttention) {

    public Workload {
        Checks.notNull("phase", phase);
        Checks.positive("batch", batch);
        Checks.positive("contextTokens", contextTokens);
        Checks.notNull("weights", weights);
        Checks.notNull("activations", activations);
        Checks.notNull("kvCache", kvCache);
    }

    /** FP16 throughout, Flash attention. */
    public static Workload decode(long batch, long contextTokens) {
        return new Workload(Phase.DECODE, batch, contextTokens, Precision.FP16, Precision.FP16, Precision.FP16, true);
    }

    /** FP16 throughout, Flash attention. */
    public static Workload prefill(long batch, long promptTokens) {
        return new Workload(Phase.PREFILL, batch, promptTokens, Precision.FP16, Precision.FP16, Precision.FP16, true);
    }

    public Workload withWeights(Precision p) {
        return new Workload(phase, batch, contextTokens, p, activations, kvCache, flashAttention);
    }

    public Workload withActivations(Precision p) {
        return new Workload(phase, batch, contextTokens, weights, p, kvCache, flashAttention);
    }

    public Workload withKvCache(Precision p) {
        return new Workload(phase, batch, contextTokens, weights, activations, p, flashAttention);
    }

    public Workload withFlashAttention(boolean flash) {
        return new Workload(phase, batch, contextTokens, weights, activations, kvCache, flash);
    }

    public Workload withBatch(long b) {
        return new Workload(phase, b, contextTokens, weights, activations, kvCache, flashAttention);
    }

    public Workload withContext(long tokens) {
        return new Workload(phase, batch, tokens, weights, activations, kvCache, flashAttention);
    }

    /** New tokens per sequence: the prompt in prefill, one in decode. */
    public long queryTokens() {
        return phase == Phase.PREFILL ? contextTokens : 1;
    }

    /** Rows every projection multiplies: batch × new tokens per sequence. */
    public long tokens() {
        return Checks.multiply(batch, queryTokens(), () -> "tokens of batch " + batch + " x " + queryTokens());
    }
}
