package dev.roofline.cuda.decode;

import dev.roofline.cuda.kernels.KvCacheFormat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A whole Llama-family decoder in double precision on the CPU, one decode step at a time with its own KV caches: the
 * reference the GPU decode step's logits are checked against. Each layer is {@code residual += attention(rmsNorm
 * (residual))} then {@code residual += mlp(rmsNorm(residual))}, and the logits are {@code rmsNorm(residual) ·
 * lmHeadᵀ}; every operator is {@link DecodeReference}'s, in the GPU kernels' layouts. The MLP is a SwiGLU or, for a
 * config with experts, Mixtral's mixture: the router's logits, {@link ExpertRouting}'s top-k, and each token's chosen
 * experts' SwiGLU outputs summed with their routing weights.
 *
 * <pre>{@code
 * var config = new ReferenceDecoder.Config(256, 4, 2, 64, 512, 1000, 1e-5, RopeFrequencies.of(64, 500_000));
 * var decoder = new ReferenceDecoder(config, ReferenceDecoder.Weights.random(config, 2, 42), 1, 128);
 * double[] logits = decoder.step(embedding, new int[] {0}); // then {1}, {2}, ...
 * }</pre>
 */
public final class ReferenceDecoder {

    /**
     * The shape of the model: {@code hidden} features, {@code heads} query heads sharing {@code kvHeads} key/value
     * heads of {@code headDim} each, an MLP of {@code intermediate} features (or {@code experts} experts of that many,
     * {@code topK} of them per token; both 0 for a dense MLP), {@code vocab} logits, the RMSNorm {@code eps} and
     * RoPE's {@code headDim / 2} inverse frequencies ({@link RopeFrequencies}).
     */
    public record Config(
            int hidden,
            int heads,
            int kvHeads,
            int headDim,
            int intermediate,
            int vocab,
            double eps,
            double[] invFreq,
            int experts,
            int topK) {
        public Config {
            if (headDim <= 0 || headDim % 2 != 0) { // RoPE turns pairs of a head's elements
                throw new IllegalArgumentException("headDim must be positive and even, got " + headDim);
            }
            // the sizes, the head grouping and the experts are checked as the GPU decoder's shape checks them
            new DecoderShape(1, hidden, heads, kvHeads, headDim, intermediate, vocab, experts, topK);
            if (!Double.isFinite(eps) || eps < 0) {
                throw new IllegalArgumentException("eps must be finite and >= 0, got " + eps);
            }
            if (invFreq == null || invFreq.length != headDim / 2) {
                throw new IllegalArgumentException("invFreq must hold headDim / 2 = " + headDim / 2 + " values, got "
                        + (invFreq == null ? "null" : invFreq.length));
            }
            invFreq = invFreq.clone(); // a config is a value: later changes to the caller's array must not reach it
            for (int i = 0; i < invFreq.length; i++) {
                if (!Double.isFinite(invFreq[i])) {
                    throw new IllegalArgumentException("invFreq[" + i + "] must be finite, got " + invFreq[i]);
                }
            }
        }

        /** A dense model's shape. */
        public Config(
                int hidden,
                int heads,
                int kvHeads,
                int headDim,
                int intermediate,
                int vocab,
                double eps,
                double[] invFreq) {
            this(hidden, heads, kvHeads, headDim, intermediate, vocab, eps, invFreq, 0, 0);
        }

        /** Whether every layer's MLP is a mixture of experts. */
        public boolean hasExperts() {
            return experts > 0;
        }

        /** A copy of the inverse frequencies. */
        @Override
        public double[] invFreq() {
            return invFreq.clone();
        }

        /** Width of the merged q/k/v projection's output: {@code (heads + 2·kvHeads)·headDim}. */
        public int qkvWidth() {
            return (heads + 2 * kvHeads) * headDim;
        }
    }

    /**
     * One layer's weights, row-major with output features as rows ({@code y = x · Wᵀ}): {@code inputNorm[hidden]};
     * {@code wqkv[(heads + 2·kvHeads)·headDim][hidden]} with the q heads' rows, then the k heads', then the v heads'
     * ({@code headDim} rows per head); {@code wo[hidden][heads·headDim]}; {@code postNorm[hidden]};
     * {@code wgu[2·intermediate][hidden]}, gate rows then up rows; {@code wd[hidden][intermediate]}.
     *
     * A layer with experts has {@code experts} instead of {@code wgu} and {@code wd} (null).
     *
     * <p>The arrays are shared, not copied (a real layer's run to hundreds of megabytes): do not change them while a
     * decoder uses them.
     */
    public record Layer(
            double[] inputNorm,
            double[] wqkv,
            double[] wo,
            double[] postNorm,
            double[] wgu,
            double[] wd,
            Experts experts) {
        public Layer {
            notNull("inputNorm", inputNorm);
            notNull("wqkv", wqkv);
            notNull("wo", wo);
            notNull("postNorm", postNorm);
            if (experts == null) {
                notNull("wgu", wgu);
                notNull("wd", wd);
            } else if (wgu != null || wd != null) {
                throw new IllegalArgumentException("a layer with experts has no dense wgu and wd");
            }
        }

        /** A layer with a dense MLP. */
        public Layer(double[] inputNorm, double[] wqkv, double[] wo, double[] postNorm, double[] wgu, double[] wd) {
            this(inputNorm, wqkv, wo, postNorm, wgu, wd, null);
        }

        /** A layer with a mixture of experts. */
        public Layer(double[] inputNorm, double[] wqkv, double[] wo, double[] postNorm, Experts experts) {
            this(inputNorm, wqkv, wo, postNorm, null, null, experts);
        }

        /** Throws naming the tensor, {@code layers[index]} and the expected length when a shape does not fit. */
        void requireFits(Config c, int index) {
            int h = c.hidden();
            String layer = "layers[" + index + "].";
            requireLength(layer + "inputNorm", inputNorm, h);
            requireLength(layer + "wqkv", wqkv, (long) c.qkvWidth() * h);
            requireLength(layer + "wo", wo, (long) h * c.heads() * c.headDim());
            requireLength(layer + "postNorm", postNorm, h);
            if (c.hasExperts() != (experts != null)) {
                throw new IllegalArgumentException(layer.substring(0, layer.length() - 1) + " has "
                        + (experts == null ? "a dense MLP" : "experts") + "; the config "
                        + (c.hasExperts() ? "has " + c.experts() + " experts" : "is dense"));
            }
            if (experts != null) {
                long e = c.experts();
                requireLength(layer + "experts.router", experts.router(), e * h);
                requireLength(layer + "experts.gateUp", experts.gateUp(), e * 2 * c.intermediate() * h);
                requireLength(layer + "experts.down", experts.down(), e * h * c.intermediate());
            } else {
                requireLength(layer + "wgu", wgu, 2L * c.intermediate() * h);
                requireLength(layer + "wd", wd, (long) h * c.intermediate());
            }
        }
    }

    /**
     * One layer's mixture of experts, row-major with output features as rows: {@code router[experts][hidden]};
     * {@code gateUp[experts][2·intermediate][hidden]}, each expert's gate rows then its up rows;
     * {@code down[experts][hidden][intermediate]}. Shared like {@link Layer}'s arrays.
     */
    public record Experts(double[] router, double[] gateUp, double[] down) {
        public Experts {
            notNull("router", router);
            notNull("gateUp", gateUp);
            notNull("down", down);
        }
    }

    /**
     * The layers, then {@code finalNorm[hidden]} and {@code lmHead[vocab][hidden]}; shared like {@link Layer}'s
     * arrays.
     */
    public record Weights(List<Layer> layers, double[] finalNorm, double[] lmHead) {
        public Weights {
            notNull("layers", layers);
            if (layers.isEmpty()) {
                throw new IllegalArgumentException("layers must not be empty");
            }
            for (int l = 0; l < layers.size(); l++) {
                notNull("layers[" + l + "]", layers.get(l));
            }
            layers = List.copyOf(layers);
            notNull("finalNorm", finalNorm);
            notNull("lmHead", lmHead);
        }

        /**
         * Seeded random weights whose activations stay of order one: linear weights uniform in
         * {@code ±1/sqrt(fan_in)}, norm weights uniform in {@code [0.9, 1.1]}. The same arguments give the same values.
         */
        public static Weights random(Config c, int layerCount, long seed) {
            notNull("config", c);
            positive("layerCount", layerCount);
            SplittableRandom rnd = new SplittableRandom(seed);
            int h = c.hidden();
            int inter = c.intermediate();
            List<Layer> layers = new ArrayList<>(layerCount);
            for (int l = 0; l < layerCount; l++) {
                if (c.hasExperts()) {
                    int e = c.experts();
                    layers.add(new Layer(
                            norm(h, rnd),
                            linear(c.qkvWidth(), h, rnd),
                            linear(h, c.heads() * c.headDim(), rnd),
                            norm(h, rnd),
                            new Experts(linear(e, h, rnd), linear(e * 2 * inter, h, rnd), linear(e * h, inter, rnd))));
                    continue;
                }
                layers.add(new Layer(
                        norm(h, rnd),
                        linear(c.qkvWidth(), h, rnd),
                        linear(h, c.heads() * c.headDim(), rnd),
                        norm(h, rnd),
                        linear(2 * inter, h, rnd),
                        linear(h, inter, rnd)));
            }
            return new Weights(layers, norm(h, rnd), linear(c.vocab(), h, rnd));
        }

        /** Throws naming the tensor, its layer and the expected length when a shape does not fit {@code c}. */
        public void requireFits(Config c) {
            for (int l = 0; l < layers.size(); l++) {
                layers.get(l).requireFits(c, l);
            }
            requireLength("finalNorm", finalNorm, c.hidden());
            requireLength("lmHead", lmHead, (long) c.vocab() * c.hidden());
        }

        private static double[] norm(int n, SplittableRandom rnd) {
            return rnd.doubles(n, 0.9, 1.1).toArray();
        }

        private static double[] linear(int rows, int fanIn, SplittableRandom rnd) {
            long size = (long) rows * fanIn;
            if (size > Integer.MAX_VALUE - 8) { // the JVM's largest array, with its header
                throw new IllegalArgumentException(
                        "a weight of " + rows + " x " + fanIn + " values does not fit a Java array");
            }
            double bound = 1 / Math.sqrt(fanIn);
            return rnd.doubles(size, -bound, bound).toArray();
        }
    }

    private final Config config;
    private final Weights weights;
    private final int batch;
    private final int capacity;
    private final KvCache[] caches;
    private final ExpertRouting.Routing[] routing;

    /**
     * A decoder with empty (zero) KV caches of {@code capacity} positions for each of {@code batch} rows, which hold
     * keys and values exactly.
     *
     * @throws IllegalArgumentException when {@code weights} do not fit {@code config}, for a non-positive batch or
     *     capacity, or caches too large for a Java array
     */
    public ReferenceDecoder(Config config, Weights weights, int batch, int capacity) {
        this(config, weights, batch, capacity, null, true);
    }

    /**
     * A decoder whose caches store each key and value as {@code kv} does ({@link KvCacheFormat#roundKey},
     * {@link KvCacheFormat#roundValue}): the reference of a GPU cache in that format, its rounding included.
     *
     * @throws IllegalArgumentException as the exact-cache constructor does, and for a null {@code kv}
     */
    public ReferenceDecoder(Config config, Weights weights, int batch, int capacity, KvCacheFormat kv) {
        this(config, weights, batch, capacity, kv, false);
    }

    private ReferenceDecoder(Config config, Weights weights, int batch, int capacity, KvCacheFormat kv, boolean exact) {
        if (!exact) {
            notNull("kv", kv);
        }
        notNull("config", config);
        notNull("weights", weights);
        weights.requireFits(config);
        positive("batch", batch);
        positive("capacity", capacity);
        this.config = config;
        this.weights = weights;
        this.batch = batch;
        this.capacity = capacity;
        this.caches = new KvCache[weights.layers().size()];
        this.routing = new ExpertRouting.Routing[caches.length];
        for (int l = 0; l < caches.length; l++) {
            caches[l] = new KvCache(batch, config.kvHeads(), capacity, config.headDim(), kv);
        }
    }

    /**
     * One decode step: row {@code b} takes the hidden state {@code x[b]} (its token's embedding) at
     * {@code positions[b]}, writes its keys and values into the caches there and attends over cache slots
     * {@code 0..positions[b]}. A row sent back to an earlier position (a new sequence in that batch slot) overwrites
     * its slots from there on; slots it never wrote hold zeros.
     *
     * @param x         batch × hidden
     * @param positions batch positions, each in {@code [0, capacity)}
     * @return the logits, batch × vocab
     * @throws IllegalArgumentException for a wrong length of {@code x} or {@code positions} or a position out of range;
     *     the caches are then unchanged
     */
    public double[] step(double[] x, int[] positions) {
        int h = config.hidden();
        notNull("x", x);
        requireLength("x", x, (long) batch * h);
        notNull("positions", positions);
        int[] lengths = Positions.lengths(positions, batch, capacity);
        int heads = config.heads();
        int kv = config.kvHeads();
        int d = config.headDim();
        int inter = config.intermediate();
        double eps = config.eps();
        double[] invFreq = config.invFreq();
        double[] residual = x.clone();
        for (int l = 0; l < weights.layers().size(); l++) {
            Layer w = weights.layers().get(l);
            double[] qkv = linear(DecodeReference.rmsNorm(residual, w.inputNorm(), batch, eps), w.wqkv(), h);
            double[] q = columns(qkv, config.qkvWidth(), 0, heads * d);
            double[] k = columns(qkv, config.qkvWidth(), heads * d, kv * d);
            double[] v = columns(qkv, config.qkvWidth(), (heads + kv) * d, kv * d);
            DecodeReference.rope(q, batch, heads, positions, invFreq);
            DecodeReference.rope(k, batch, kv, positions, invFreq);
            caches[l].append(k, v, positions);
            double[] a = DecodeReference.attention(
                    q, caches[l].keys, caches[l].values, lengths, batch, heads, kv, d, capacity);
            addInPlace(residual, linear(a, w.wo(), heads * d));
            double[] normed = DecodeReference.rmsNorm(residual, w.postNorm(), batch, eps);
            if (w.experts() != null) {
                routing[l] = ExpertRouting.route(
                        linear(normed, w.experts().router(), h), batch, config.experts(), config.topK());
                addInPlace(residual, ReferenceMixture.delta(normed, w.experts(), routing[l], config, batch));
                continue;
            }
            double[] gateUp = linear(normed, w.wgu(), h);
            addInPlace(residual, linear(DecodeReference.siluMul(gateUp, batch, inter), w.wd(), inter));
        }
        return linear(DecodeReference.rmsNorm(residual, weights.finalNorm(), batch, eps), weights.lmHead(), h);
    }

    /**
     * The routing of layer {@code layer} in the last step, for a config with experts: each row's experts, weights and
     * the margin to the next one ({@link ExpertRouting.Routing}).
     *
     * @throws IllegalStateException before the first step or for a dense config
     */
    public ExpertRouting.Routing routing(int layer) {
        ExpertRouting.Routing r = routing[requireLayer(layer)];
        if (r == null) {
            throw new IllegalStateException(
                    config.hasExperts() ? "no step has run yet" : "a dense model has no routing");
        }
        return r;
    }

    /** A copy of layer {@code layer}'s key cache, {@code [batch][kvHeads][capacity][headDim]}. */
    public double[] kCache(int layer) {
        return caches[requireLayer(layer)].keys.clone();
    }

    /** A copy of layer {@code layer}'s value cache, {@code [batch][kvHeads][capacity][headDim]}. */
    public double[] vCache(int layer) {
        return caches[requireLayer(layer)].values.clone();
    }

    private int requireLayer(int layer) {
        int n = weights.layers().size();
        if (layer < 0 || layer >= n) {
            throw new IllegalArgumentException("layer must be in [0, " + n + "), got " + layer);
        }
        return layer;
    }

    /** {@code x · wᵀ} for the batch's rows of {@code in} features; {@code w} holds the output rows. */
    private double[] linear(double[] x, double[] w, int in) {
        int out = w.length / in;
        double[] y = new double[batch * out];
        for (int b = 0; b < batch; b++) {
            for (int n = 0; n < out; n++) {
                double s = 0;
                for (int i = 0; i < in; i++) {
                    s += x[b * in + i] * w[n * in + i];
                }
                y[b * out + n] = s;
            }
        }
        return y;
    }

    /** Columns {@code [from, from + count)} of each of the batch's rows of {@code a} ({@code width} wide). */
    private double[] columns(double[] a, int width, int from, int count) {
        double[] out = new double[batch * count];
        for (int b = 0; b < batch; b++) {
            System.arraycopy(a, b * width + from, out, b * count, count);
        }
        return out;
    }

    private static void addInPlace(double[] acc, double[] delta) {
        for (int i = 0; i < acc.length; i++) {
            acc[i] += delta[i];
        }
    }

    private static void requireLength(String name, double[] a, long expected) {
        if (a.length != expected) {
            throw new IllegalArgumentException(name + " must hold " + expected + " values, got " + a.length);
        }
    }

    private static void positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, got " + value);
        }
    }

    private static void notNull(String name, Object value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
    }
}
