package dev.roofline.core.transformer;

import dev.roofline.core.model.MixtureOfExperts;
import dev.roofline.core.model.SwiGlu;
import dev.roofline.core.roofline.Elementwise;
import dev.roofline.core.roofline.GroupedGemm;

import static dev.roofline.core.transformer.StepList.ROUTER_SCORE_FLOPS_PER_LOGIT;
import static dev.roofline.core.transformer.StepList.mul;

/** The MLP block of a decoder layer (after its norm, before the residual add). */
final class MlpSteps {
    private MlpSteps() {}

    /** gate and up projections, silu(gate)·up, down projection. */
    static void swiGlu(StepList s, String prefix, long intermediate, long layers) {
        gated(s, prefix, new SwiGlu(Math.toIntExact(intermediate)), layers);
    }

    /** gate and up projections, silu(gate)·up or gelu(gate)·up, down projection. */
    static void gated(StepList s, String prefix, SwiGlu mlp, long layers) {
        long intermediate = mlp.intermediateSize();
        s.linear(prefix + "gate_proj", intermediate, s.hidden, layers);
        s.linear(prefix + "up_proj", intermediate, s.hidden, layers);
        if (mlp.gelu()) {
            s.geluMul(prefix + "gelu*up", mul(s.n, intermediate), layers);
        } else {
            s.siluMul(prefix + "silu*up", mul(s.n, intermediate), layers);
        }
        s.linear(prefix + "down_proj", s.hidden, intermediate, layers);
    }

    /**
     * Router, top-k selection, routed experts as grouped GEMMs that read the weights of the expected distinct experts
     * touched by this step's tokens, shared experts, and the weighted combine.
     */
    static void mixture(StepList s, MixtureOfExperts moe, long layers) {
        Workload w = s.w;
        // the router scores every expert, also on a GPU that holds a share of them under expert parallelism
        long e = moe.routerExperts();
        long k = moe.topK();
        long n = s.n;
        s.linear("router", e, s.hidden, layers);
        // score each logit, k comparison passes; read the logits, write k FP32 weights and k int32 indices per token
        long selectBytes = w.activations().storageBytes(n, e) + mul(n, k) * 8;
        s.add(new Elementwise("top-k", mul(mul(n, e), ROUTER_SCORE_FLOPS_PER_LOGIT + k), selectBytes), layers, false);
        double touched = moe.expectedDistinctExperts(n);
        long routed = mul(n, k);
        long ff = moe.expertIntermediateSize();
        s.add(
                new GroupedGemm(
                        "experts gate_proj",
                        touched,
                        routed,
                        ff,
                        s.hidden,
                        w.expertWeights(),
                        w.activations(),
                        w.activations()),
                layers,
                true);
        s.add(
                new GroupedGemm(
                        "experts up_proj",
                        touched,
                        routed,
                        ff,
                        s.hidden,
                        w.expertWeights(),
                        w.activations(),
                        w.activations()),
                layers,
                true);
        s.siluMul("experts silu*up", mul(routed, ff), layers);
        s.add(
                new GroupedGemm(
                        "experts down_proj",
                        touched,
                        routed,
                        s.hidden,
                        ff,
                        w.expertWeights(),
                        w.activations(),
                        w.activations()),
                layers,
                true);
        long inputs = k;
        if (moe.sharedExperts() > 0) {
            swiGlu(s, "shared ", (long) moe.sharedExperts() * ff, layers);
            inputs++;
        }
        // y = Σ weight_i · expert_i (+ shared): a multiply-add per routed output, an add for the shared one
        long flops = mul(mul(n, s.hidden), 2 * k + (inputs - k));
        long bytes = w.activations().storageBytes(mul(n, inputs), s.hidden)
                + w.activations().storageBytes(n, s.hidden);
        s.add(new Elementwise("expert combine", flops, bytes), layers, false);
    }
}
