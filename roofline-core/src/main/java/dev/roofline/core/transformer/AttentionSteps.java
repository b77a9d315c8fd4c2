package dev.roofline.core.transformer;

import dev.roofline.core.model.LatentAttention;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.MultiHeadAttention;
import dev.roofline.core.model.SlidingWindow;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Attention;
import dev.roofline.core.roofline.Elementwise;
import dev.roofline.core.roofline.Gemm;

import static dev.roofline.core.transformer.StepList.ROPE_FLOPS_PER_ELEMENT;
import static dev.roofline.core.transformer.StepList.mul;

/** The attention block of a decoder layer (after its input norm, before the residual add). */
final class AttentionSteps {
    private AttentionSteps() {}

    /**
     * Multi-head attention in {@code layers} layers, {@code window.layers()} of which attend to the last
     * {@code window.tokens()} tokens only: those run as their own attention step over at most that many keys. In
     * prefill every query is priced against its window's keys, K and V against the window's rows too (the whole
     * context's are read once in all, a lower bound where the prompt is longer than the window).
     */
    static void multiHead(StepList s, MultiHeadAttention a, SlidingWindow window, long layers) {
        Workload w = s.w;
        long d = a.headDim();
        long q = (long) a.heads() * d;
        long kv = (long) a.kvHeads() * d;
        s.linear("q_proj", q, s.hidden, layers);
        // K and V leave their projections in the cache's precision: that write is the KV-cache append
        s.linear("k_proj", s.n, kv, s.hidden, w.kvCache(), layers);
        s.linear("v_proj", s.n, kv, s.hidden, w.kvCache(), layers);
        if (a.qkvBias()) {
            // fused into the GEMM epilogue: one add per output, the bias vector read once
            s.add(new Elementwise("qkv bias", mul(s.n, q + 2 * kv), vectorBytes(q + 2 * kv)), layers, false);
        }
        if (a.qkNorm()) {
            // each head's queries and keys RMS-normalised over headDim before RoPE, each with its own weight vector
            s.rmsNorm("q norm", mul(s.n, a.heads()), d, w.activations(), layers);
            s.rmsNorm("k norm", mul(s.n, a.kvHeads()), d, w.kvCache(), layers);
        }
        long ropeBytes = 2 * w.activations().storageBytes(mul(s.n, a.heads()), d)
                + 2 * w.kvCache().storageBytes(mul(s.n, a.kvHeads()), d);
        s.add(
                new Elementwise(
                        "rope", mul(mul(mul(s.n, a.heads() + a.kvHeads()), d), ROPE_FLOPS_PER_ELEMENT), ropeBytes),
                layers,
                false);
        long full = layers - window.layers();
        if (full > 0) {
            scores(
                    s,
                    "attention",
                    mul(w.batch(), a.kvHeads()),
                    w.queryTokens() * a.groupSize(),
                    w.contextTokens(),
                    d,
                    d,
                    false,
                    w.kvCache(),
                    full);
        }
        if (window.any()) {
            scores(
                    s,
                    "attention (window " + window.tokens() + ")",
                    mul(w.batch(), a.kvHeads()),
                    w.queryTokens() * a.groupSize(),
                    window.keys(w.contextTokens()),
                    d,
                    d,
                    false,
                    w.kvCache(),
                    window.layers());
        }
        s.linear("o_proj", s.hidden, q, layers);
        if (a.outputBias()) {
            s.add(new Elementwise("o bias", mul(s.n, s.hidden), vectorBytes(s.hidden)), layers, false);
        }
    }

    /**
     * DeepSeek MLA. Prefill expands the latent with kv_b and runs ordinary attention over heads of nope+rope keys;
     * decode absorbs kv_b into the query (W_UK) and the output (W_UV) and attends over the compressed cache directly.
     */
    static void latent(StepList s, LatentAttention a, long layers) {
        Workload w = s.w;
        long h = a.heads();
        long qk = a.qkHeadDim();
        long latent = a.kvLoraRank();
        s.linear("q_a_proj", a.qLoraRank(), s.hidden, layers);
        s.rmsNorm("q_a norm", s.n, a.qLoraRank(), w.activations(), layers);
        s.linear("q_b_proj", h * qk, a.qLoraRank(), layers);
        s.linear("kv_a_proj", s.n, latent + a.qkRopeHeadDim(), s.hidden, w.kvCache(), layers);
        s.rmsNorm("kv_a norm", s.n, latent, w.kvCache(), layers);
        long ropeElementsQ = mul(mul(s.n, h), a.qkRopeHeadDim());
        long ropeElementsK = mul(s.n, a.qkRopeHeadDim());
        long ropeBytes = 2 * w.activations().storageBytes(ropeElementsQ)
                + 2 * w.kvCache().storageBytes(ropeElementsK);
        s.add(
                new Elementwise("rope", mul(ropeElementsQ + ropeElementsK, ROPE_FLOPS_PER_ELEMENT), ropeBytes),
                layers,
                false);
        if (w.phase() == Phase.PREFILL) {
            // the S cached latents of each sequence expanded to per-head K_nope and V
            s.add(
                    new Gemm(
                            "kv_b_proj",
                            1,
                            mul(w.batch(), w.contextTokens()),
                            h * (a.qkNopeHeadDim() + a.vHeadDim()),
                            latent,
                            w.weights(),
                            w.kvCache(),
                            w.activations()),
                    layers,
                    true);
            scores(
                    s,
                    "attention",
                    mul(w.batch(), h),
                    w.queryTokens(),
                    w.contextTokens(),
                    qk,
                    a.vHeadDim(),
                    false,
                    w.activations(),
                    layers);
        } else {
            // W_UK and W_UV are the two halves of kv_b_proj, applied per head
            s.add(
                    new Gemm(
                            "q absorb (W_UK)",
                            h,
                            s.n,
                            latent,
                            a.qkNopeHeadDim(),
                            w.weights(),
                            w.activations(),
                            w.activations()),
                    layers,
                    true);
            scores(
                    s,
                    "latent attention",
                    w.batch(),
                    w.queryTokens() * h,
                    w.contextTokens(),
                    latent + a.qkRopeHeadDim(),
                    latent,
                    true,
                    w.kvCache(),
                    layers);
            s.add(
                    new Gemm(
                            "o absorb (W_UV)",
                            h,
                            s.n,
                            a.vHeadDim(),
                            latent,
                            w.weights(),
                            w.activations(),
                            w.activations()),
                    layers,
                    true);
        }
        s.linear("o_proj", s.hidden, h * a.vHeadDim(), layers);
    }

    /**
     * softmax(Q·Kᵀ)·V for {@code batch} KV heads of {@code rows} query rows each over {@code keys} keys. Flash: one
     * fused operator. Otherwise Q·Kᵀ writes the scores, softmax reads and rewrites them, score·V reads them again.
     */
    private static void scores(
            StepList s,
            String name,
            long batch,
            long rows,
            long keys,
            long keyDim,
            long valueDim,
            boolean shared,
            Precision kv,
            long layers) {
        Workload w = s.w;
        boolean capped = s.model.softCapping().capsScores();
        if (w.flashAttention()) {
            s.add(
                    new Attention(name, batch, rows, keys, keyDim, valueDim, shared, w.activations(), kv, capped),
                    layers,
                    true);
            return;
        }
        Precision a = w.activations();
        s.add(new Gemm(name + " QK^T", batch, rows, keys, keyDim, kv, a, a), layers, true);
        // a soft cap is applied in the softmax's pass over the scores
        s.add(
                Elementwise.streaming(
                        name + " softmax", mul(mul(batch, rows), keys), Attention.perScore(capped), a, 1, 1),
                layers,
                false);
        s.add(new Gemm(name + " score*V", batch, rows, valueDim, keys, kv, a, a), layers, true);
    }

    private static long vectorBytes(long elements) {
        return Model.VECTOR_PRECISION.storageBytes(elements);
    }
}
