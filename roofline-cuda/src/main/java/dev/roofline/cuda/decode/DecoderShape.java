package dev.roofline.cuda.decode;

import dev.roofline.core.model.Model;
import dev.roofline.core.model.MultiHeadAttention;
import dev.roofline.core.model.SwiGlu;

/**
 * The dimensions of a dense Llama-family decoder as {@link DenseDecoder} runs it: multi-head or grouped-query
 * attention and a SwiGLU MLP.
 */
public record DecoderShape(int layers, int hidden, int heads, int kvHeads, int headDim, int intermediate, int vocab) {

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
    }

    /**
     * The shape of {@code model}; a model with latent attention, a mixture of experts or a q/k/v bias is refused by
     * name.
     */
    public static DecoderShape of(Model model) {
        if (!(model.attention() instanceof MultiHeadAttention a) || !(model.feedForward() instanceof SwiGlu mlp)) {
            throw new IllegalArgumentException(model.name() + ": the decoder runs dense models with multi-head or"
                    + " grouped-query attention and a SwiGLU MLP");
        }
        if (a.qkvBias()) {
            throw new IllegalArgumentException(model.name() + ": the decoder has no q/k/v bias (the model has one)");
        }
        return new DecoderShape(
                model.layers(),
                model.hiddenSize(),
                a.heads(),
                a.kvHeads(),
                a.headDim(),
                mlp.intermediateSize(),
                model.vocabSize());
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
