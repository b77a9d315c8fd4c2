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
 * The token embedding and the LM head are not quantized unless asked ({@link #withQuantizedEmbeddings}): quantizers
 * (roofline-quant's {@code quantize}, NVIDIA ModelOpt, AWQ, GPTQ) keep both at the checkpoint's 16 bits, so by default
 * they are priced in {@link #embeddings()}, not in the weight precision.
 *
 * @param flashAttention      fused attention without an S × S score matrix in DRAM (default); false materialises the
 *                            scores, softmax reading and writing them
 * @param quantizedEmbeddings true to store the embedding table and the LM head in the weight precision too; false
 *                            (default) keeps them at 16 bits, see {@link #embeddings()}
 * @param expertWeights       the routed experts' precision: {@code weights} unless set apart
 *                            ({@link #withExpertWeights}; gpt-oss ships its experts in MXFP4, the rest in BF16)
 */
public record Workload(
        Phase phase,
        long batch,
        long contextTokens,
        Precision weights,
        Precision activations,
        Precision kvCache,
        boolean flashAttention,
        boolean quantizedEmbeddings,
        Precision expertWeights) {

    /** Weights of this many bits or more are the checkpoint as trained, not a quantization of it. */
    private static final int UNQUANTIZED_BITS = 16;

    public Workload {
        Checks.notNull("phase", phase);
        Checks.positive("batch", batch);
        Checks.positive("contextTokens", contextTokens);
        Checks.notNull("weights", weights);
        Checks.notNull("activations", activations);
        Checks.notNull("kvCache", kvCache);
        Checks.notNull("expertWeights", expertWeights);
    }

    /** A workload whose routed experts are stored like every other weight. */
    public Workload(
            Phase phase,
            long batch,
            long contextTokens,
            Precision weights,
            Precision activations,
            Precision kvCache,
            boolean flashAttention,
            boolean quantizedEmbeddings) {
        this(phase, batch, contextTokens, weights, activations, kvCache, flashAttention, quantizedEmbeddings, weights);
    }

    /** A workload whose embedding table and LM head stay at 16 bits (see {@link #embeddings()}). */
    public Workload(
            Phase phase,
            long batch,
            long contextTokens,
            Precision weights,
            Precision activations,
            Precision kvCache,
            boolean flashAttention) {
        this(phase, batch, contextTokens, weights, activations, kvCache, flashAttention, false);
    }

    /** FP16 throughout, Flash attention. */
    public static Workload decode(long batch, long contextTokens) {
        return new Workload(Phase.DECODE, batch, contextTokens, Precision.FP16, Precision.FP16, Precision.FP16, true);
    }

    /** FP16 throughout, Flash attention. */
    public static Workload prefill(long batch, long promptTokens) {
        return new Workload(Phase.PREFILL, batch, promptTokens, Precision.FP16, Precision.FP16, Precision.FP16, true);
    }

    /** The weights' precision, the routed experts' included (set them apart afterwards with {@link #withExpertWeights}). */
    /** The same workload in the other phase ({@code contextTokens} then the prompt, or the cache). */
    public Workload withPhase(Phase p) {
        Checks.notNull("phase", p);
        return new Workload(
                p,
                batch,
                contextTokens,
                weights,
                activations,
                kvCache,
                flashAttention,
                quantizedEmbeddings,
                expertWeights);
    }

    public Workload withWeights(Precision p) {
        return new Workload(
                phase, batch, contextTokens, p, activations, kvCache, flashAttention, quantizedEmbeddings, p);
    }

    /** The routed experts' precision alone. */
    public Workload withExpertWeights(Precision p) {
        return new Workload(
                phase, batch, contextTokens, weights, activations, kvCache, flashAttention, quantizedEmbeddings, p);
    }

    public Workload withActivations(Precision p) {
        return new Workload(
                phase, batch, contextTokens, weights, p, kvCache, flashAttention, quantizedEmbeddings, expertWeights);
    }

    public Workload withKvCache(Precision p) {
        return new Workload(
                phase,
                batch,
                contextTokens,
                weights,
                activations,
                p,
                flashAttention,
                quantizedEmbeddings,
                expertWeights);
    }

    public Workload withFlashAttention(boolean flash) {
        return new Workload(
                phase, batch, contextTokens, weights, activations, kvCache, flash, quantizedEmbeddings, expertWeights);
    }

    public Workload withBatch(long b) {
        return new Workload(
                phase,
                b,
                contextTokens,
                weights,
                activations,
                kvCache,
                flashAttention,
                quantizedEmbeddings,
                expertWeights);
    }

    public Workload withContext(long tokens) {
        return new Workload(
                phase,
                batch,
                tokens,
                weights,
                activations,
                kvCache,
                flashAttention,
                quantizedEmbeddings,
                expertWeights);
    }

    /** A copy whose embedding table and LM head are stored in the weight precision ({@code true}) or not. */
    public Workload withQuantizedEmbeddings(boolean quantized) {
        return new Workload(
                phase, batch, contextTokens, weights, activations, kvCache, flashAttention, quantized, expertWeights);
    }

    /**
     * The precision of the token-embedding table and the LM head: the weight precision when
     * {@link #quantizedEmbeddings} is set or the weights are 16 bits or wider (nothing quantized); otherwise the
     * checkpoint's 16 bits they were left at, taken as the activations' precision when that is 16 bits or wider and
     * as BF16 (the precision Hugging Face checkpoints ship in) when the activations are quantized too.
     */
    public Precision embeddings() {
        if (quantizedEmbeddings || weights.elementBits() >= UNQUANTIZED_BITS) {
            return weights;
        }
        return activations.elementBits() >= UNQUANTIZED_BITS ? activations : Precision.BF16;
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
