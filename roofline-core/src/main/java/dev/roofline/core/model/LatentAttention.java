package dev.roofline.core.model;

import dev.roofline.core.internal.Checks;

import java.util.List;

/**
 * DeepSeek-V2/V3 multi-head latent attention. Queries go through a low-rank bottleneck
 * ({@code q_a: H → qLoraRank}, norm, {@code q_b: qLoraRank → heads·(nope + rope)}); keys and values are cached as one
 * compressed latent of {@code kvLoraRank} plus a shared RoPE key of {@code qkRopeHeadDim}
 * ({@code kv_a: H → kvLoraRank + rope}), expanded by {@code kv_b: kvLoraRank → heads·(nope + vHeadDim)}.
 */
public record LatentAttention(
        int heads, int qLoraRank, int kvLoraRank, int qkNopeHeadDim, int qkRopeHeadDim, int vHeadDim)
        implements AttentionShape {

    public LatentAttention {
        Checks.positive("heads", heads);
        Checks.positive("qLoraRank", qLoraRank);
        Checks.positive("kvLoraRank", kvLoraRank);
        Checks.positive("qkNopeHeadDim", qkNopeHeadDim);
        Checks.positive("qkRopeHeadDim", qkRopeHeadDim);
        Checks.positive("vHeadDim", vHeadDim);
    }

    /** Width of one query/key head: nope + rope. */
    public long qkHeadDim() {
        return (long) qkNopeHeadDim + qkRopeHeadDim;
    }

    @Override
    public List<WeightMatrix> matrices(long hiddenSize, long layers) {
        long qb = Checks.multiply(heads, qkHeadDim(), () -> "q_b_proj rows (heads, qkNopeHeadDim + qkRopeHeadDim)");
        long kvb = Checks.multiply(
                heads, (long) qkNopeHeadDim + vHeadDim, () -> "kv_b_proj rows (heads, qkNopeHeadDim + vHeadDim)");
        return List.of(
                new WeightMatrix("q_a_proj", qLoraRank, hiddenSize, layers),
                new WeightMatrix("q_b_proj", qb, qLoraRank, layers),
                new WeightMatrix("kv_a_proj_with_mqa", (long) kvLoraRank + qkRopeHeadDim, hiddenSize, layers),
                new WeightMatrix("kv_b_proj", kvb, kvLoraRank, layers),
                new WeightMatrix("o_proj", hiddenSize, (long) heads * vHeadDim, layers));
    }

    /** The q_a and kv_a RMSNorm weights. */
    @Override
    public long vectorParameters(long hiddenSize) {
        return (long) qLoraRank + kvLoraRank;
    }

    /** The compressed latent plus the shared RoPE key: {@code kvLoraRank + qkRopeHeadDim}. */
    @Override
    public long kvCacheElementsPerToken() {
        return (long) kvLoraRank + qkRopeHeadDim;
    }

    @Override
    public long kvCacheRowElements() {
        return kvCacheElementsPerToken();
    }
}
