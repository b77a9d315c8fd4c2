package dev.roofline.core.model;

import dev.roofline.core.internal.Checks;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A mixture of SwiGLU experts: a router ({@code routerExperts × H}) picks {@code topK} of {@code experts} routed experts per
 * token; {@code sharedExperts} always run (DeepSeek fuses them into one SwiGLU of {@code sharedExperts ×
 * expertIntermediateSize}). The first {@code denseLayers} layers use a dense SwiGLU of {@code denseIntermediateSize}
 * instead (DeepSeek-V3's {@code first_k_dense_replace}).
 *
 * @param routerBias   the router carries one bias per expert (DeepSeek-V3's {@code e_score_correction_bias}, gpt-oss's
 *                     router bias)
 * @param expertBiases every expert's gate, up and down projections carry biases (gpt-oss):
 *                     {@code 2 · expertIntermediateSize + H} per expert
 * @param routerExperts the experts the router scores: {@code experts} for a whole model; under expert parallelism a GPU
 *                      holds {@code experts} of them but still scores every one ({@code routerExperts ≥ experts})
 */
public record MixtureOfExperts(
        int experts,
        int topK,
        int expertIntermediateSize,
        int sharedExperts,
        int denseLayers,
        int denseIntermediateSize,
        boolean routerBias,
        boolean expertBiases,
        int routerExperts)
        implements FeedForward {

    public MixtureOfExperts {
        Checks.positive("experts", experts);
        Checks.positive("topK", topK);
        Checks.positive("expertIntermediateSize", expertIntermediateSize);
        if (topK > experts) {
            throw new IllegalArgumentException("topK must be <= experts, got " + topK + " > " + experts);
        }
        if (sharedExperts < 0 || denseLayers < 0) {
            throw new IllegalArgumentException(
                    "sharedExperts and denseLayers must be >= 0, got " + sharedExperts + " and " + denseLayers);
        }
        if (denseLayers > 0) {
            Checks.positive("denseIntermediateSize", denseIntermediateSize);
        }
        if (routerExperts < experts) {
            throw new IllegalArgumentException(
                    "routerExperts must be >= experts, got " + routerExperts + " < " + experts);
        }
    }

    /** A whole model's mixture: the router scores the {@code experts} it holds. */
    public MixtureOfExperts(
            int experts,
            int topK,
            int expertIntermediateSize,
            int sharedExperts,
            int denseLayers,
            int denseIntermediateSize,
            boolean routerBias,
            boolean expertBiases) {
        this(
                experts,
                topK,
                expertIntermediateSize,
                sharedExperts,
                denseLayers,
                denseIntermediateSize,
                routerBias,
                expertBiases,
                experts);
    }

    /** Experts without biases. */
    public MixtureOfExperts(
            int experts,
            int topK,
            int expertIntermediateSize,
            int sharedExperts,
            int denseLayers,
            int denseIntermediateSize,
            boolean routerBias) {
        this(
                experts,
                topK,
                expertIntermediateSize,
                sharedExperts,
                denseLayers,
                denseIntermediateSize,
                routerBias,
                false);
    }

    /** Mixtral style: every layer routed, no shared experts, no router bias. */
    public static MixtureOfExperts routed(int experts, int topK, int expertIntermediateSize) {
        return new MixtureOfExperts(experts, topK, expertIntermediateSize, 0, 0, 0, false);
    }

    /** gpt-oss style: every layer routed, no shared experts, a router bias and biases on every expert. */
    public static MixtureOfExperts routedWithBiases(int experts, int topK, int expertIntermediateSize) {
        return new MixtureOfExperts(experts, topK, expertIntermediateSize, 0, 0, 0, true, true);
    }

    /**
     * Expected distinct experts touched by {@code tokens} tokens each routing to {@code topK} of {@code experts}
     * uniformly: {@code E · (1 − (1 − k/E)^tokens)}.
     */
    public double expectedDistinctExperts(long tokens) {
        Checks.positive("tokens", tokens);
        return experts * -Math.expm1(tokens * Math.log1p(-(double) topK / experts));
    }

    /** Layers whose MLP is routed. */
    public long moeLayers(long layers) {
        if (denseLayers > layers) {
            throw new IllegalArgumentException("denseLayers must be <= layers, got " + denseLayers + " > " + layers);
        }
        return layers - denseLayers;
    }

    @Override
    public List<WeightMatrix> matrices(long hiddenSize, long layers) {
        return matrices(hiddenSize, layers, experts);
    }

    @Override
    public List<WeightMatrix> activeMatrices(long hiddenSize, long layers) {
        return matrices(hiddenSize, layers, topK);
    }

    private List<WeightMatrix> matrices(long hidden, long layers, long expertsPerLayer) {
        long moe = moeLayers(layers);
        List<WeightMatrix> m = new ArrayList<>();
        if (denseLayers > 0) {
            m.addAll(SwiGlu.matrices("dense ", hidden, denseIntermediateSize, denseLayers, WeightMatrix.Role.DENSE));
        }
        if (moe > 0) {
            m.add(new WeightMatrix("router", routerExperts, hidden, moe));
            m.addAll(SwiGlu.matrices(
                    "expert ", hidden, expertIntermediateSize, moe * expertsPerLayer, WeightMatrix.Role.ROUTED_EXPERT));
            if (sharedExperts > 0) {
                m.addAll(SwiGlu.matrices(
                        "shared ",
                        hidden,
                        (long) sharedExperts * expertIntermediateSize,
                        moe,
                        WeightMatrix.Role.DENSE));
            }
        }
        return List.copyOf(m);
    }

    @Override
    public long vectorParameters(long hiddenSize, long layers) {
        return vectorParameters(hiddenSize, layers, experts);
    }

    @Override
    public long activeVectorParameters(long hiddenSize, long layers) {
        return vectorParameters(hiddenSize, layers, topK);
    }

    /** The router's biases of every expert it scores, and the biases of {@code expertsPerLayer} experts in each routed layer. */
    private long vectorParameters(long hidden, long layers, long expertsPerLayer) {
        Supplier<String> what = () -> "router and expert bias parameters";
        long moe = moeLayers(layers);
        long router = routerBias ? Checks.multiply(moe, routerExperts, what) : 0;
        long perExpert = expertBiases ? Checks.add(2L * expertIntermediateSize, hidden, what) : 0;
        return Checks.add(router, Checks.multiply(Checks.multiply(moe, expertsPerLayer, what), perExpert, what), what);
    }
}
