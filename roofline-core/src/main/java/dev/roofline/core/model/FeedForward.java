package dev.roofline.core.model;

import java.util.List;

/** The MLP of a decoder layer: one SwiGLU block, or a mixture of SwiGLU experts. */
public sealed interface FeedForward permits SwiGlu, MixtureOfExperts {

    /** Every MLP matrix of a model with {@code layers} decoder layers. */
    List<WeightMatrix> matrices(long hiddenSize, long layers);

    /** The matrices one token reads (top-k routed experts instead of all of them). */
    List<WeightMatrix> activeMatrices(long hiddenSize, long layers);

    /** MLP parameters outside matrices, all layers of a model of {@code hiddenSize} (router and expert biases). */
    long vectorParameters(long hiddenSize, long layers);

    /** The same for one token: the top-k routed experts' biases instead of every expert's. */
    default long activeVectorParameters(long hiddenSize, long layers) {
        return vectorParameters(hiddenSize, layers);
    }
}
