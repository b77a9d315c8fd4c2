package dev.roofline.core.model;

import java.util.List;

/** How a decoder layer attends: standard multi-head (MHA, GQA, MQA) or DeepSeek's multi-head latent attention. */
public sealed interface AttentionShape permits MultiHeadAttention, LatentAttention {

    /** Query heads. */
    int heads();

    /** The projection matrices of one layer, each with count {@code layers}. */
    List<WeightMatrix> matrices(long hiddenSize, long layers);

    /**
     * Parameters outside matrices in one layer's attention block of a model of {@code hiddenSize}: biases, inner norms
     * and sinks (not the input norm).
     */
    long vectorParameters(long hiddenSize);

    /** KV-cache elements one token adds to one layer. */
    long kvCacheElementsPerToken();

    /** Row width of one KV-cache entry, the dimension block scales run along. */
    long kvCacheRowElements();
}
