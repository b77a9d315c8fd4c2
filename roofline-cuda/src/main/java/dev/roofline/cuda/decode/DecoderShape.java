package dev.roofline.cuda.decode;

import dev.roofline.core.model.MixtureOfExperts;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.MultiHeadAttention;
import dev.roofline.core.model.SwiGlu;

import java.util.List;

/**
 * The dimensions of a Llama-family decoder as {@link DenseDecoder} runs it: multi-head or grouped-query attention and
 * a SwiGLU MLP, or in every layer a Mixtral-style mixture of {@code experts} SwiGLU experts of which each token runs
 * {@code topK} ({@code experts} and {@code topK} 0 for a dense model).
 *
 * @param intermediate the MLP's width, or each expert's
 */
public record DecoderShape(
        int layers,
        int hidden,
        int heads,
        int kvHeads,
        int headDim,
        int intermediate,
        int vocab,
        int experts,
        int topK) {

    public DecoderShape {
        positive("layers", layers);
        positive("hidden", hidden);
        positive("heads", heads);
        positive("kvHeads", kvHeads);
        positive("headDim", headDim);
        positive("intermediate", intermediate);
        positive("vocab", vocab);
        if (heads % kvHeads != 0) {
            throw new IllegalArgumentException("heads (" + heads + ") must be a multiple of kvHeads (" + kvHeads + ")");
        }
        if (experts != 0 || topK != 0) {
            positive("experts", experts);
            if (topK < 1 || topK > experts) {
                throw new IllegalArgumentException("topK must be in [1, experts = " + experts + "], got " + topK);
            }
        }
    }

    /** A dense model's shape. */
    public DecoderShape(int layers, int hidden, int heads, int kvHeads, int headDim, int intermediate, int vocab) {
        this(layers, hidden, heads, kvHeads, headDim, intermediate, vocab, 0, 0);
    }

    /**
     * The shape of {@code model}; a model with latent attention, a q/k/v bias, q/k norms or sliding windows is refused
     * by name, and so is a mixture of experts other than Mixtral's (shared experts, dense layers or a router bias).
     */
    public static DecoderShape of(Model model) {
        if (!(model.attention() instanceof MultiHeadAttention a)) {
            throw new IllegalArgumentException(model.name() + ": the decoder runs models with multi-head or"
                    + " grouped-query attention (the model has "
                    + model.attention().getClass().getSimpleName() + ")");
        }
        if (a.qkvBias()) {
            throw new IllegalArgumentException(model.name() + ": the decoder has no q/k/v bias (the model has one)");
        }
        if (model.sandwichNorms()) {
            throw new IllegalArgumentException(model.name() + ": the decoder normalises before attention and the MLP"
                    + " only (the model normalises their outputs too)");
        }
        if (model.slidingWindow().any()) {
            throw new IllegalArgumentException(
                    model.name() + ": the decoder attends to the whole context in every layer"
                            + " (the model has a " + model.slidingWindow().tokens() + "-token window in "
                            + model.slidingWindow().layers() + " layers)");
        }
        if (a.qkNorm()) {
            throw new IllegalArgumentException(
                    model.name() + ": the decoder has no per-head query and key norms (the model has them)");
        }
        if (model.softCapping().any()) {
            throw new IllegalArgumentException(
                    model.name() + ": the decoder does not soft-cap scores or logits (the model does)");
        }
        return switch (model.feedForward()) {
            case SwiGlu mlp
            when mlp.gelu() ->
                throw new IllegalArgumentException(
                        model.name() + ": the decoder's MLP is SiLU-gated (the model's is GELU-gated)");
            case SwiGlu mlp ->
                new DecoderShape(
                        model.layers(),
                        model.hiddenSize(),
                        a.heads(),
                        a.kvHeads(),
                        a.headDim(),
                        mlp.intermediateSize(),
                        model.vocabSize());
            case MixtureOfExperts moe -> {
                if (moe.sharedExperts() > 0 || moe.denseLayers() > 0 || moe.routerBias()) {
                    throw new IllegalArgumentException(model.name() + ": the decoder runs Mixtral-style experts (every"
                            + " layer routed, no shared experts, no router bias); the model has " + moe.sharedExperts()
                            + " shared experts, " + moe.denseLayers() + " dense layers"
                            + (moe.routerBias() ? " and a router bias" : ""));
                }
                if (moe.routerExperts() != moe.experts()) {
                    throw new IllegalArgumentException(model.name() + ": the decoder holds every expert it routes"
                            + " among; this mixture holds " + moe.experts() + " of the " + moe.routerExperts()
                            + " its router scores (an expert-parallel shard)");
                }
                yield new DecoderShape(
                        model.layers(),
                        model.hiddenSize(),
                        a.heads(),
                        a.kvHeads(),
                        a.headDim(),
                        moe.expertIntermediateSize(),
                        model.vocabSize(),
                        moe.experts(),
                        moe.topK());
            }
        };
    }

    /**
     * One GPU's part of this dense shape under tensor parallelism over {@code tp} GPUs, split as Megatron-LM splits a
     * Llama layer: the query and KV heads (q/k/v column-parallel, o row-parallel), the MLP's columns (gate/up
     * column-parallel, down row-parallel) and the vocabulary ({@code lm_head} column-parallel). Layers and hidden size
     * stay whole; each GPU's o and down products are partial sums that an all-reduce completes. With fewer KV heads
     * than GPUs each GPU keeps the one KV head its query heads share (replicated over {@code tp / kvHeads} GPUs, as
     * vLLM and Megatron do, and as roofline-core's serving model prices it).
     *
     * @throws IllegalArgumentException for a shape with experts, or a dimension {@code tp} does not divide (named)
     */
    public DecoderShape shard(int tp) {
        if (tp < 1) {
            throw new IllegalArgumentException("tensor parallelism must be >= 1, got " + tp);
        }
        if (hasExperts()) {
            throw new IllegalArgumentException(
                    "tensor parallelism: the decoder splits dense shapes only; this one has " + experts + " experts");
        }
        return new DecoderShape(
                layers,
                hidden,
                split("heads", heads, tp),
                kvHeads >= tp ? split("kvHeads", kvHeads, tp) : replicated(tp),
                headDim,
                split("intermediate", intermediate, tp),
                split("vocab", vocab, tp));
    }

    /** One KV head a GPU when the GPUs outnumber the KV heads: tp must be a multiple of them. */
    private int replicated(int tp) {
        if (tp % kvHeads != 0) {
            throw new IllegalArgumentException("tensor parallelism " + tp + " must be a multiple of kvHeads (" + kvHeads
                    + ") for each GPU to hold one whole KV head");
        }
        return 1;
    }

    private static int split(String name, int n, int tp) {
        if (n % tp != 0) {
            throw new IllegalArgumentException("tensor parallelism " + tp + " must divide " + name + " (" + n
                    + ") for every GPU to hold an equal part");
        }
        return n / tp;
    }

    /** Whether every layer's MLP is a mixture of experts. */
    public boolean hasExperts() {
        return experts > 0;
    }

    /** The operators of one step, in the order a layer runs them ({@link DecoderOperator#of}). */
    public List<DecoderOperator> operators() {
        return DecoderOperator.of(this);
    }

    /** Outputs of the merged q/k/v projection per row: (heads + 2·kvHeads)·headDim. */
    public int qkvWidth() {
        return (heads + 2 * kvHeads) * headDim;
    }

    /** Width of the attention output per row (the o projection's input): heads·headDim. */
    public int attentionWidth() {
        return heads * headDim;
    }

    private static void positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, got " + value);
        }
    }
}
