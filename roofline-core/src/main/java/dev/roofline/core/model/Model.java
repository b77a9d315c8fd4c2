package dev.roofline.core.model;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A decoder-only transformer as its Hugging Face {@code config.json} describes it: token embedding, {@code layers}
 * identical pre-norm decoder layers (RMSNorm, attention, residual, RMSNorm, MLP, residual), a final RMSNorm and the
 * LM head (absent when tied to the embedding). Some layers may attend within a {@link SlidingWindow}; with
 * {@code sandwichNorms} (Gemma) the attention and MLP outputs are RMS-normalised too before their residual adds.
 * {@code maxPositions} is the longest context the checkpoint is made for ({@code max_position_embeddings}; 0 when not
 * stated): RoPE scaling changes no FLOPs, but the positions bound the context a KV cache is sized for. A
 * {@link SoftCapping} caps the attention scores or the logits (Gemma's {@code *_logit_softcapping}).
 *
 * <pre>{@code
 * Model m = Model.newBuilder("tiny").hiddenSize(1024).layers(4).vocabSize(32000)
 *         .attention(16, 4).swiGlu(2816).build();
 * long params = m.parameterCount();
 * }</pre>
 */
public record Model(
        String name,
        int hiddenSize,
        int layers,
        int vocabSize,
        boolean tiedEmbeddings,
        AttentionShape attention,
        FeedForward feedForward,
        SlidingWindow slidingWindow,
        boolean sandwichNorms,
        int maxPositions,
        SoftCapping softCapping) {

    /** Norm weights and biases are kept in 16 bits whatever the matrices are quantized to. */
    public static final Precision VECTOR_PRECISION = Precision.BF16;

    public Model {
        Checks.notBlank("name", name);
        Checks.positive("hiddenSize", hiddenSize);
        Checks.positive("layers", layers);
        Checks.positive("vocabSize", vocabSize);
        Checks.notNull("attention", attention);
        Checks.notNull("feedForward", feedForward);
        if (feedForward instanceof MixtureOfExperts moe) {
            moe.moeLayers(layers);
        }
        Checks.notNull("slidingWindow", slidingWindow);
        if (slidingWindow.layers() > layers) {
            throw new IllegalArgumentException(
                    "slidingWindow.layers must be <= layers, got " + slidingWindow.layers() + " > " + layers);
        }
        if (maxPositions < 0) {
            throw new IllegalArgumentException("maxPositions must be >= 0 (0: not stated), got " + maxPositions);
        }
        if (slidingWindow.any() && !(attention instanceof MultiHeadAttention)) {
            throw new IllegalArgumentException("a sliding window needs multi-head attention, got latent attention");
        }
        Checks.notNull("softCapping", softCapping);
    }

    /** A model without soft-capping. */
    public Model(
            String name,
            int hiddenSize,
            int layers,
            int vocabSize,
            boolean tiedEmbeddings,
            AttentionShape attention,
            FeedForward feedForward,
            SlidingWindow slidingWindow,
            boolean sandwichNorms,
            int maxPositions) {
        this(
                name,
                hiddenSize,
                layers,
                vocabSize,
                tiedEmbeddings,
                attention,
                feedForward,
                slidingWindow,
                sandwichNorms,
                maxPositions,
                SoftCapping.NONE);
    }

    /** A model whose every layer attends to the whole context. */
    public Model(
            String name,
            int hiddenSize,
            int layers,
            int vocabSize,
            boolean tiedEmbeddings,
            AttentionShape attention,
            FeedForward feedForward) {
        this(name, hiddenSize, layers, vocabSize, tiedEmbeddings, attention, feedForward, SlidingWindow.NONE, false, 0);
    }

    /** This model with {@code positions} as its longest context (its {@code max_position_embeddings}). */
    public Model withMaxPositions(int positions) {
        return new Model(
                name,
                hiddenSize,
                layers,
                vocabSize,
                tiedEmbeddings,
                attention,
                feedForward,
                slidingWindow,
                sandwichNorms,
                positions,
                softCapping);
    }

    /** Norms per decoder layer: 2 (before attention and MLP), 4 with {@link #sandwichNorms} (after each too). */
    public int normsPerLayer() {
        return sandwichNorms ? 4 : 2;
    }

    public static Builder newBuilder(String name) {
        return new Builder(name);
    }

    /** Every weight matrix: embedding, per-layer attention and MLP matrices, and the LM head unless tied. */
    public List<WeightMatrix> matrices() {
        return matrices(feedForward.matrices(hiddenSize, layers));
    }

    private List<WeightMatrix> matrices(List<WeightMatrix> mlp) {
        List<WeightMatrix> m = new ArrayList<>();
        m.add(new WeightMatrix("embed_tokens", vocabSize, hiddenSize, 1, WeightMatrix.Role.EMBEDDING));
        m.addAll(attention.matrices(hiddenSize, layers));
        m.addAll(mlp);
        if (!tiedEmbeddings) {
            m.add(new WeightMatrix("lm_head", vocabSize, hiddenSize, 1));
        }
        return List.copyOf(m);
    }

    /**
     * Parameters outside matrices: the norms of each layer ({@link #normsPerLayer}), the attention's biases, inner
     * norms and sinks, the router's and experts' biases, the final norm.
     */
    public long vectorParameters() {
        return vectorParameters(feedForward.vectorParameters(hiddenSize, layers));
    }

    private long vectorParameters(long mlp) {
        Supplier<String> what = () -> "vector parameters of " + name;
        long perLayer = Checks.add((long) normsPerLayer() * hiddenSize, attention.vectorParameters(hiddenSize), what);
        return Checks.add(Checks.add(Checks.multiply(layers, perLayer, what), mlp, what), hiddenSize, what);
    }

    /**
     * Every weight the checkpoint stores for the main model: the elements of {@link #matrices()} (the embedding, every
     * attention and MLP matrix, routers, the LM head unless tied: a tied head is counted once) plus
     * {@link #vectorParameters()} (each layer's norms, the final norm, Q/K/V/O biases, q/k norms, sinks, expert biases, MLA's inner norms and
     * DeepSeek-V3's per-expert router bias {@code e_score_correction_bias}). That bias is a tensor of the checkpoint
     * but a buffer, not a parameter, to Hugging Face transformers, so {@code model.num_parameters()} there is lower by
     * {@code moeLayers · experts}: DeepSeek-V3 counts 671,026,419,200 here and 671,026,404,352 there (58 × 256 fewer).
     * Not counted: rotary-embedding tables (computed, not stored) and DeepSeek's multi-token-prediction module.
     *
     * @throws IllegalArgumentException naming the sum when the count overflows a long
     */
    public long parameterCount() {
        return Checks.add(sum(matrices()), vectorParameters(), () -> "parameter count of " + name);
    }

    /**
     * Parameters one token uses: as {@link #parameterCount()}, with only top-k routed experts (and their biases) per
     * MoE layer; the embedding table and the LM head both count.
     */
    public long activeParameterCount() {
        return Checks.add(
                sum(matrices(feedForward.activeMatrices(hiddenSize, layers))),
                vectorParameters(feedForward.activeVectorParameters(hiddenSize, layers)),
                () -> "active parameter count of " + name);
    }

    private long sum(List<WeightMatrix> ms) {
        long total = 0;
        for (WeightMatrix w : ms) {
            total = Checks.add(total, w.parameters(), () -> "parameters of " + name);
        }
        return total;
    }

    /** Bytes of all weights: matrices in {@code weights} (block scales included), vectors in {@link #VECTOR_PRECISION}. */
    public long weightBytes(Precision weights) {
        Checks.notNull("weights", weights);
        long total = VECTOR_PRECISION.storageBytes(vectorParameters());
        for (WeightMatrix w : matrices()) {
            total = Checks.add(total, w.bytes(weights), () -> "weight bytes of " + name);
        }
        return total;
    }

    /**
     * KV-cache bytes one token adds across all layers, stored in {@code kv}, while the context is within every sliding
     * window; past a window only the other layers' share ({@link #kvCacheBytesPerTokenBeyondWindow}) grows.
     */
    public long kvCacheBytesPerToken(Precision kv) {
        return Checks.multiply(layerKvBytesPerToken(kv), layers, () -> "KV bytes of " + name);
    }

    /** KV-cache bytes one token adds once the context is past the sliding window: the full-attention layers'. */
    public long kvCacheBytesPerTokenBeyondWindow(Precision kv) {
        return Checks.multiply(layerKvBytesPerToken(kv), layers - slidingWindow.layers(), () -> "KV bytes of " + name);
    }

    /**
     * KV-cache bytes of one sequence of {@code contextTokens} tokens: every full-attention layer holds all of them, a
     * windowed layer at most its window.
     */
    public long kvCacheBytes(Precision kv, long contextTokens) {
        Checks.positive("contextTokens", contextTokens);
        Supplier<String> what = () -> "KV bytes of " + name + " at " + contextTokens + " tokens";
        long full = Checks.multiply(kvCacheBytesPerTokenBeyondWindow(kv), contextTokens, what);
        long windowed = Checks.multiply(
                Checks.multiply(layerKvBytesPerToken(kv), slidingWindow.layers(), what),
                slidingWindow.keys(contextTokens),
                what);
        return Checks.add(full, windowed, what);
    }

    private long layerKvBytesPerToken(Precision kv) {
        Checks.notNull("kv", kv);
        long rows = attention.kvCacheElementsPerToken() / attention.kvCacheRowElements();
        return kv.storageBytes(rows, attention.kvCacheRowElements());
    }

    @Override
    public String toString() {
        return name;
    }

    /** Builds a custom model; hidden size, layers, vocabulary, attention and MLP are required. */
    public static final class Builder {
        private final String name;
        private int hiddenSize;
        private int layers;
        private int vocabSize;
        private boolean tied;
        private int heads;
        private int kvHeads;
        private int headDim;
        private boolean qkvBias;
        private boolean qkNorm;
        private boolean outputBias;
        private boolean sinks;
        private LatentAttention latent;
        private FeedForward feedForward;
        private SlidingWindow slidingWindow = SlidingWindow.NONE;
        private boolean sandwichNorms;
        private SoftCapping softCapping = SoftCapping.NONE;
        private int maxPositions;

        private Builder(String name) {
            this.name = Checks.notBlank("name", name);
        }

        public Builder hiddenSize(int h) {
            this.hiddenSize = Checks.positive("hiddenSize", h);
            return this;
        }

        public Builder layers(int n) {
            this.layers = Checks.positive("layers", n);
            return this;
        }

        public Builder vocabSize(int v) {
            this.vocabSize = Checks.positive("vocabSize", v);
            return this;
        }

        public Builder tiedEmbeddings(boolean tied) {
            this.tied = tied;
            return this;
        }

        /** Multi-head attention with {@code kvHeads} KV heads (= heads for MHA, fewer for GQA). */
        public Builder attention(int heads, int kvHeads) {
            this.heads = Checks.positive("heads", heads);
            this.kvHeads = Checks.positive("kvHeads", kvHeads);
            this.latent = null;
            return this;
        }

        /** Head width; defaults to hiddenSize / heads, which must then be whole. */
        public Builder headDim(int d) {
            this.headDim = Checks.positive("headDim", d);
            return this;
        }

        public Builder qkvBias(boolean bias) {
            this.qkvBias = bias;
            return this;
        }

        /** A bias on o_proj ({@link MultiHeadAttention#outputBias}). */
        public Builder outputBias(boolean bias) {
            this.outputBias = bias;
            return this;
        }

        /** One sink logit per query head in every softmax ({@link MultiHeadAttention#sinks}). */
        public Builder attentionSinks(boolean sinks) {
            this.sinks = sinks;
            return this;
        }

        /** Per-head RMSNorms on the queries and keys ({@link MultiHeadAttention#qkNorm}). */
        public Builder qkNorm(boolean norm) {
            this.qkNorm = norm;
            return this;
        }

        public Builder latentAttention(LatentAttention mla) {
            this.latent = Checks.notNull("latentAttention", mla);
            this.heads = 0;
            return this;
        }

        public Builder swiGlu(int intermediateSize) {
            this.feedForward = new SwiGlu(intermediateSize);
            return this;
        }

        public Builder mixtureOfExperts(MixtureOfExperts moe) {
            this.feedForward = Checks.notNull("mixtureOfExperts", moe);
            return this;
        }

        /** A gated MLP with GELU (tanh) on the gate: GeGLU ({@link SwiGlu#gelu}). */
        public Builder geGlu(int intermediateSize) {
            this.feedForward = new SwiGlu(intermediateSize, true);
            return this;
        }

        /** Soft-capped attention scores and/or logits ({@link SoftCapping}). */
        public Builder softCapping(SoftCapping caps) {
            this.softCapping = Checks.notNull("softCapping", caps);
            return this;
        }

        /** RMSNorms after attention and after the MLP too, four per layer ({@link Model#sandwichNorms}). */
        public Builder sandwichNorms(boolean on) {
            this.sandwichNorms = on;
            return this;
        }

        /** The longest context the model is made for ({@link Model#maxPositions}). */
        public Builder maxPositions(int positions) {
            this.maxPositions = Checks.positive("maxPositions", positions);
            return this;
        }

        /** {@code layers} of the layers attend to the last {@code tokens} tokens only ({@link SlidingWindow}). */
        public Builder slidingWindow(int tokens, int layers) {
            this.slidingWindow = new SlidingWindow(tokens, layers);
            return this;
        }

        public Model build() {
            require(hiddenSize, "hiddenSize");
            require(layers, "layers");
            require(vocabSize, "vocabSize");
            if (feedForward == null) {
                throw new IllegalStateException("model '" + name + "' needs swiGlu(...) or mixtureOfExperts(...)");
            }
            AttentionShape a;
            if (latent != null) {
                a = latent;
            } else if (heads > 0) {
                if (headDim == 0 && hiddenSize % heads != 0) {
                    // the default head width hiddenSize / heads must not be truncated
                    throw new IllegalStateException("model '" + name + "': hiddenSize " + hiddenSize
                            + " is not a multiple of heads " + heads + "; set headDim");
                }
                a = new MultiHeadAttention(
                        heads, kvHeads, headDim > 0 ? headDim : hiddenSize / heads, qkvBias, qkNorm, outputBias, sinks);
            } else {
                throw new IllegalStateException(
                        "model '" + name + "' needs attention(heads, kvHeads) or latentAttention(...)");
            }
            return new Model(
                    name,
                    hiddenSize,
                    layers,
                    vocabSize,
                    tied,
                    a,
                    feedForward,
                    slidingWindow,
                    sandwichNorms,
                    maxPositions,
                    softCapping);
        }

        private void require(int v, String what) {
            if (v <= 0) {
                throw new IllegalStateException("model '" + name + "' needs " + what + "(...)");
            }
        }
    }
}
