package dev.roofline.core.model;

import dev.roofline.core.internal.Checks;

import java.util.List;

/**
 * Multi-head attention with {@code kvHeads} key/value heads shared by groups of query heads: MHA when
 * {@code kvHeads == heads}, GQA when fewer, MQA when 1. Q is {@code heads·headDim × H}, K and V are
 * {@code kvHeads·headDim × H}, O is {@code H × heads·headDim}.
 *
 * @param qkvBias Q, K and V projections carry a bias (Qwen2)
 * @param qkNorm     each query and key head is RMS-normalised before RoPE, with one weight vector of {@code headDim}
 *                   for the queries and one for the keys in every layer (Qwen3's {@code q_norm}, {@code k_norm})
 * @param outputBias o_proj carries a bias of the hidden size (gpt-oss)
 * @param sinks      one learned sink logit per query head joins every softmax (gpt-oss's attention sinks)
 */
public record MultiHeadAttention(
        int heads, int kvHeads, int headDim, boolean qkvBias, boolean qkNorm, boolean outputBias, boolean sinks)
        implements AttentionShape {

    public MultiHeadAttention {
        Checks.positive("heads", heads);
        Checks.positive("kvHeads", kvHeads);
        Checks.positive("headDim", headDim);
        if (kvHeads > heads) {
            throw new IllegalArgumentException("kvHeads must be <= heads, got " + kvHeads + " > " + heads);
        }
        if (heads % kvHeads != 0) {
            throw new IllegalArgumentException("heads must be a multiple of kvHeads, got " + heads + " and " + kvHeads);
        }
    }

    /** Attention without per-head norms, output bias or sinks. */
    public MultiHeadAttention(int heads, int kvHeads, int headDim, boolean qkvBias) {
        this(heads, kvHeads, headDim, qkvBias, false, false, false);
    }

    /** Query heads per KV head. */
    public int groupSize() {
        return heads / kvHeads;
    }

    @Override
    public List<WeightMatrix> matrices(long hiddenSize, long layers) {
        // two ints multiply exactly in a long
        long q = (long) heads * headDim;
        long kv = (long) kvHeads * headDim;
        return List.of(
                new WeightMatrix("q_proj", q, hiddenSize, layers),
                new WeightMatrix("k_proj", kv, hiddenSize, layers),
                new WeightMatrix("v_proj", kv, hiddenSize, layers),
                new WeightMatrix("o_proj", hiddenSize, q, layers));
    }

    /**
     * The Q, K and V biases when {@link #qkvBias}: {@code (heads + 2 · kvHeads) · headDim}; the query and key norms'
     * weights when {@link #qkNorm}: {@code 2 · headDim}; o_proj's bias when {@link #outputBias}: {@code hiddenSize};
     * the sinks when {@link #sinks}: {@code heads}.
     */
    @Override
    public long vectorParameters(long hiddenSize) {
        long bias = qkvBias
                ? Checks.multiply(
                        heads + 2L * kvHeads, headDim, () -> "q/k/v bias parameters (heads, kvHeads, headDim)")
                : 0;
        return bias + (qkNorm ? 2L * headDim : 0) + (outputBias ? hiddenSize : 0) + (sinks ? heads : 0);
    }

    /** K and V: {@code 2 · kvHeads · headDim}. */
    @Override
    public long kvCacheElementsPerToken() {
        return Checks.multiply(2L * kvHeads, headDim, () -> "KV-cache elements per token (kvHeads, headDim)");
    }

    @Override
    public long kvCacheRowElements() {
        return headDim;
    }
}
