package dev.roofline.core.parallel;

import dev.roofline.core.model.LatentAttention;
import dev.roofline.core.model.MixtureOfExperts;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.MultiHeadAttention;
import dev.roofline.core.model.SwiGlu;

/**
 * What one GPU of one pipeline stage holds of a model under a {@link Deployment}, as a {@link Model} of its own so
 * that the single-GPU pricing applies unchanged: the stage's layers, the heads, KV heads (each GPU keeps one KV head
 * when there are fewer than tensor-parallel GPUs: replicated, as vLLM and Megatron do), MLP columns and vocabulary
 * split by tensor parallelism, the routed experts split by expert parallelism; latent attention by its heads, its
 * latent cache whole; shared experts and a mixture's dense layers like the MLP columns.
 */
final class Shard {
    private Shard() {}

    /** The model one GPU of a stage of {@code stageLayers} layers runs. */
    static Model of(Model m, Deployment d, int stageLayers) {
        int tp = d.tensorParallel();
        Model.Builder b = Model.newBuilder(m.name() + " (1/" + d.gpus() + ")")
                .hiddenSize(m.hiddenSize())
                .layers(stageLayers)
                .vocabSize(Math.ceilDiv(m.vocabSize(), tp))
                .tiedEmbeddings(m.tiedEmbeddings())
                .sandwichNorms(m.sandwichNorms())
                .softCapping(m.softCapping());
        switch (m.attention()) {
            case MultiHeadAttention a -> {
                int heads = divide(m.name(), "attention heads", a.heads(), tp);
                int kvHeads = a.kvHeads() >= tp ? divide(m.name(), "KV heads", a.kvHeads(), tp) : 1;
                b.attention(heads, kvHeads)
                        .headDim(a.headDim())
                        .qkvBias(a.qkvBias())
                        .qkNorm(a.qkNorm())
                        .outputBias(a.outputBias())
                        .attentionSinks(a.sinks());
            }
            // latent attention splits its heads (q_b, kv_b and o by head); the low-rank down-projections q_a and kv_a,
            // and so the cached latent, stay whole on every GPU, as vLLM and SGLang run DeepSeek under TP
            case LatentAttention a ->
                b.latentAttention(new LatentAttention(
                        divide(m.name(), "attention heads", a.heads(), tp),
                        a.qLoraRank(),
                        a.kvLoraRank(),
                        a.qkNopeHeadDim(),
                        a.qkRopeHeadDim(),
                        a.vHeadDim()));
        }
        if (m.slidingWindow().any()) {
            // the windowed layers spread over the stages in proportion
            int windowed = Math.toIntExact(Math.round((double) m.slidingWindow().layers() * stageLayers / m.layers()));
            if (windowed > 0) {
                b.slidingWindow(m.slidingWindow().tokens(), Math.min(windowed, stageLayers));
            }
        }
        switch (m.feedForward()) {
            case SwiGlu mlp -> {
                int columns = divide(m.name(), "MLP columns", mlp.intermediateSize(), tp);
                if (mlp.gelu()) {
                    b.geGlu(columns);
                } else {
                    b.swiGlu(columns);
                }
            }
            case MixtureOfExperts moe -> {
                int ep = d.expertParallel();
                int experts = divide(m.name(), "experts", moe.experts(), ep);
                int columns = ep == 1
                        ? divide(m.name(), "expert columns", moe.expertIntermediateSize(), tp)
                        : moe.expertIntermediateSize();
                // every GPU routes among all experts (the router whole); it holds experts / ep of them, each of the
                // batch's tokens' top-k landing on it in expectation k / ep
                // shared experts run every token like the routed ones' columns: split by TP, whole under EP; the
                // dense layers' MLPs are split by TP like any MLP. With pipeline stages the stage priced is the
                // heaviest, one of routed layers only (a routed layer holds more than a dense one), so the dense
                // layers go with one stage only
                int dense = stageLayers < m.layers() ? 0 : moe.denseLayers();
                int denseColumns =
                        dense == 0 ? 0 : divide(m.name(), "dense MLP columns", moe.denseIntermediateSize(), tp);
                b.mixtureOfExperts(new MixtureOfExperts(
                        experts,
                        Math.max(1, Math.min(experts, Math.ceilDiv(moe.topK(), ep))),
                        columns,
                        moe.sharedExperts(),
                        dense,
                        denseColumns,
                        moe.routerBias(),
                        moe.expertBiases(),
                        moe.routerExperts()));
            }
        }
        return b.build();
    }

    private static int divide(String model, String what, int n, int parts) {
        if (n % parts != 0) {
            throw new IllegalArgumentException(
                    model + ": " + n + " " + what + " do not split evenly over " + parts + " tensor-parallel GPUs");
        }
        return n / parts;
    }
}
