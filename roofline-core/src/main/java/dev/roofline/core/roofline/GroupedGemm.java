package dev.roofline.core.roofline;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;

import java.util.function.Supplier;

/**
 * The routed experts of a mixture-of-experts layer as one grouped GEMM: {@code tokens} routed rows (tokens × top-k)
 * each multiplied by the {@code N×K} weights of its expert. Weights are read once per expert actually touched, which
 * in expectation need not be a whole number.
 *
 * <pre>{@code
 * // Mixtral decode, batch 1: 2 routed rows, 2 of 8 experts touched, gate projection 14336 x 4096
 * GroupedGemm g = new GroupedGemm("experts gate", 2.0, 2, 14336, 4096, Precision.FP16, Precision.FP16, Precision.FP16);
 * }</pre>
 *
 * @param expertsTouched expected number of distinct experts whose weights are read, &gt; 0
 * @param tokens         routed rows (tokens × experts per token)
 */
public record GroupedGemm(
        String name,
        double expertsTouched,
        long tokens,
        long n,
        long k,
        Precision weights,
        Precision activations,
        Precision output)
        implements Operator {

    public GroupedGemm {
        Checks.notBlank("name", name);
        Checks.positive("expertsTouched", expertsTouched);
        Checks.positive("tokens", tokens);
        Checks.positive("N", n);
        Checks.positive("K", k);
        Checks.notNull("weights", weights);
        Checks.notNull("activations", activations);
        Checks.notNull("output", output);
        flops(tokens, n, k);
        bytes(expertsTouched, tokens, n, k, weights, activations, output);
    }

    @Override
    public long flops() {
        return flops(tokens, n, k);
    }

    /** {@code ceil(expertsTouched × expert weight bytes)} + routed activations in + outputs out. */
    @Override
    public long bytes() {
        return bytes(expertsTouched, tokens, n, k, weights, activations, output);
    }

    private static long flops(long tokens, long n, long k) {
        return Gemm.flops(1, tokens, n, k, () -> "FLOPs of grouped GEMM tokens=" + tokens + " N=" + n + " K=" + k);
    }

    private static long bytes(double experts, long tokens, long n, long k, Precision w, Precision a, Precision c) {
        Supplier<String> what = () -> "bytes of grouped GEMM tokens=" + tokens + " N=" + n + " K=" + k;
        double weightBytes = Math.ceil(experts * Gemm.weightBytes(w, a, n, k));
        if (weightBytes >= Long.MAX_VALUE) {
            throw new IllegalArgumentException(what.get() + " overflows a long");
        }
        return Checks.add(
                Checks.add((long) weightBytes, Gemm.activationBytes(a, tokens, k), what),
                c.storageBytes(tokens, n),
                what);
    }
}
