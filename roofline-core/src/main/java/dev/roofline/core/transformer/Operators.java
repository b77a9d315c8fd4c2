package dev.roofline.core.transformer;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.model.LatentAttention;
import dev.roofline.core.model.MixtureOfExperts;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.MultiHeadAttention;
import dev.roofline.core.model.SoftCapping;
import dev.roofline.core.model.SwiGlu;
import dev.roofline.core.roofline.Elementwise;
import dev.roofline.core.roofline.Gemm;

import java.util.List;

/**
 * The operators of one forward pass of a model, each with how many times it runs. Per layer:
 * input RMSNorm, attention block, residual add, RMSNorm, MLP block, residual add (two more norms, after attention and
 * after the MLP, with sandwich norms; windowed layers attend in their own step) (the norms and the two adds are
 * one step each, counted twice per layer). Around the layers: embedding lookup, final RMSNorm, LM head.
 *
 * <pre>{@code
 * List<Step> steps = Operators.of(Models.LLAMA_3_8B, Workload.decode(1, 4096));
 * }</pre>
 */
public final class Operators {
    private Operators() {}

    public static List<Step> of(Model model, Workload w) {
        Checks.notNull("model", model);
        Checks.notNull("workload", w);
        StepList s = new StepList(model, w);
        long layers = model.layers();
        long h = model.hiddenSize();
        // gather n rows of the table, write them as activations
        s.add(
                new Elementwise(
                        "embedding",
                        0,
                        w.embeddings().storageBytes(s.n, h) + w.activations().storageBytes(s.n, h)),
                1,
                false);
        s.rmsNorm("rmsnorm", s.n, h, w.activations(), (long) model.normsPerLayer() * layers);
        switch (model.attention()) {
            case MultiHeadAttention a -> AttentionSteps.multiHead(s, a, model.slidingWindow(), layers);
            case LatentAttention a -> AttentionSteps.latent(s, a, layers);
        }
        s.residual("residual add", StepList.mul(s.n, h), 2 * layers);
        switch (model.feedForward()) {
            case SwiGlu f -> MlpSteps.gated(s, "", f, layers);
            case MixtureOfExperts moe -> {
                if (moe.denseLayers() > 0) {
                    MlpSteps.swiGlu(s, "dense ", moe.denseIntermediateSize(), moe.denseLayers());
                }
                // dense layers may cover every layer (first_k_dense_replace >= num_hidden_layers): no routed step
                long routed = moe.moeLayers(layers);
                if (routed > 0) {
                    MlpSteps.mixture(s, moe, routed);
                }
            }
        }
        s.rmsNorm("final norm", s.n, h, w.activations(), 1);
        // logits for the last position of each sequence only; the head is stored like the embedding table
        s.add(
                new Gemm(
                        "lm_head",
                        1,
                        w.batch(),
                        model.vocabSize(),
                        h,
                        w.embeddings(),
                        w.activations(),
                        w.activations()),
                1,
                true);
        if (model.softCapping().capsLogits()) {
            // cap · tanh(logit / cap) over the logits, read and written once (a pass of its own, as transformers runs
            // it)
            s.add(
                    Elementwise.streaming(
                            SoftCapping.LOGITS_STEP,
                            StepList.mul(w.batch(), model.vocabSize()),
                            SoftCapping.FLOPS_PER_VALUE,
                            w.activations(),
                            1,
                            1),
                    1,
                    false);
        }
        return s.steps();
    }
}
