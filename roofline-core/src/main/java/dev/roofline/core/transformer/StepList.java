package dev.roofline.core.transformer;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.model.Model;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Elementwise;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Operator;

import java.util.ArrayList;
import java.util.List;

/** Collects a forward pass's steps, with the vector-operator costs every builder shares. */
final class StepList {

    /** x², running sum, scale by 1/rms, scale by the weight. */
    static final int RMSNORM_FLOPS_PER_ELEMENT = 4;
    /** Rotating a pair is 4 multiplies and 2 adds: 3 per element. */
    static final int ROPE_FLOPS_PER_ELEMENT = 3;
    /** silu(g)·u = g / (1 + exp(−g)) · u: exp, add, divide, multiply. */
    static final int SILU_MUL_FLOPS_PER_ELEMENT = 4;
    /** gelu_tanh(g)·u: g³ (2), 0.044715·g³ + g (2), × √(2/π) (1), tanh (1), + 1 (1), × 0.5·g (2), × u (1). */
    static final int GELU_MUL_FLOPS_PER_ELEMENT = 10;
    /** Scoring one router logit (softmax or sigmoid), before the top-k comparisons. */
    static final int ROUTER_SCORE_FLOPS_PER_LOGIT = 5;

    final Model model;
    final Workload w;
    final long n;
    final long hidden;
    private final List<Step> steps = new ArrayList<>(32);

    StepList(Model model, Workload w) {
        this.model = model;
        this.w = w;
        this.n = w.tokens();
        this.hidden = model.hiddenSize();
    }

    List<Step> steps() {
        return List.copyOf(steps);
    }

    void add(Operator op, long count, boolean matmul) {
        steps.add(new Step(op, count, matmul));
    }

    /** A projection of {@code rows} tokens through an {@code outFeatures × inFeatures} weight matrix. */
    void linear(String name, long rows, long outFeatures, long inFeatures, Precision output, long count) {
        add(new Gemm(name, 1, rows, outFeatures, inFeatures, w.weights(), w.activations(), output), count, true);
    }

    void linear(String name, long outFeatures, long inFeatures, long count) {
        linear(name, n, outFeatures, inFeatures, w.activations(), count);
    }

    /** RMSNorm over {@code rows × width}: reads x and the weight vector, writes y. */
    void rmsNorm(String name, long rows, long width, Precision p, long count) {
        long elements = mul(rows, width);
        long bytes = 2 * p.storageBytes(rows, width) + Model.VECTOR_PRECISION.storageBytes(width);
        add(new Elementwise(name, mul(elements, RMSNORM_FLOPS_PER_ELEMENT), bytes), count, false);
    }

    /** {@code out = a + b}: two reads and one write per element. */
    void residual(String name, long elements, long count) {
        add(Elementwise.streaming(name, elements, 1, w.activations(), 2, 1), count, false);
    }

    /** silu(gate) · up over {@code elements}: reads both, writes one. */
    void siluMul(String name, long elements, long count) {
        add(Elementwise.streaming(name, elements, SILU_MUL_FLOPS_PER_ELEMENT, w.activations(), 2, 1), count, false);
    }

    /** gelu(gate) · up over {@code elements}: reads both, writes one. */
    void geluMul(String name, long elements, long count) {
        add(Elementwise.streaming(name, elements, GELU_MUL_FLOPS_PER_ELEMENT, w.activations(), 2, 1), count, false);
    }

    static long mul(long a, long b) {
        return Checks.multiply(a, b, () -> "element count " + a + " x " + b);
    }
}
