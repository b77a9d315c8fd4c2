package dev.roofline.core.roofline;

import dev.roofline.core.format.ScaleTiles;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.BlockScaling;
import dev.roofline.core.precision.Precision;

import java.util.function.Supplier;

/**
 * {@code C[M×N] = A[M×K] · B[N×K]ᵀ}, {@code batch} times with independent operands. A holds activations, B weights
 * (stored N×K, blocks along K), C the output. M = 1 is a GEMV (decode).
 *
 * <pre>{@code
 * Gemm gemv = Gemm.gemv(4096, 4096).withWeights(Precision.NVFP4);   // M=1, N=K=4096, FP16 activations
 * Gemm g = Gemm.of(8192, 8192, 8192).in(Precision.FP8_E4M3);        // W8A8, FP16 output
 * }</pre>
 */
public record Gemm(
        String name, long batch, long m, long n, long k, Precision weights, Precision activations, Precision output)
        implements Operator {

    public Gemm {
        Checks.notBlank("name", name);
        Checks.positive("batch", batch);
        Checks.positive("M", m);
        Checks.positive("N", n);
        Checks.positive("K", k);
        Checks.notNull("weights", weights);
        Checks.notNull("activations", activations);
        Checks.notNull("output", output);
        // validate once that FLOPs and bytes fit, so the accessors never fail later
        flops(batch, m, n, k);
        bytes(batch, m, n, k, weights, activations, output);
    }

    /** An FP16 GEMM of the given shape. */
    public static Gemm of(long m, long n, long k) {
        return new Gemm("gemm " + m + "x" + n + "x" + k, 1, m, n, k, Precision.FP16, Precision.FP16, Precision.FP16);
    }

    /** An FP16 matrix-vector product (M = 1): N outputs, K inputs. */
    public static Gemm gemv(long n, long k) {
        return new Gemm("gemv " + n + "x" + k, 1, 1, n, k, Precision.FP16, Precision.FP16, Precision.FP16);
    }

    /** {@code batch} independent FP16 GEMMs of one shape (e.g. attention heads). */
    public static Gemm batched(long batch, long m, long n, long k) {
        return new Gemm(
                batch + "x gemm " + m + "x" + n + "x" + k,
                batch,
                m,
                n,
                k,
                Precision.FP16,
                Precision.FP16,
                Precision.FP16);
    }

    public Gemm named(String newName) {
        return new Gemm(newName, batch, m, n, k, weights, activations, output);
    }

    public Gemm withWeights(Precision p) {
        return new Gemm(name, batch, m, n, k, p, activations, output);
    }

    public Gemm withActivations(Precision p) {
        return new Gemm(name, batch, m, n, k, weights, p, output);
    }

    public Gemm withOutput(Precision p) {
        return new Gemm(name, batch, m, n, k, weights, activations, p);
    }

    /** Weights and activations both in {@code p}; the output keeps its precision. */
    public Gemm in(Precision p) {
        return new Gemm(name, batch, m, n, k, p, p, output);
    }

    @Override
    public long flops() {
        return flops(batch, m, n, k);
    }

    @Override
    public long bytes() {
        return bytes(batch, m, n, k, weights, activations, output);
    }

    private static long flops(long batch, long m, long n, long k) {
        return flops(batch, m, n, k, () -> "FLOPs of GEMM batch=" + batch + " M=" + m + " N=" + n + " K=" + k);
    }

    /** {@code 2 × batch × M × N × K} (a multiply and an add per product term); {@code what} names it on overflow. */
    static long flops(long batch, long m, long n, long k, Supplier<String> what) {
        return Checks.multiply(
                Checks.multiply(Checks.multiply(Checks.multiply(2, batch, what), m, what), n, what), k, what);
    }

    private static long bytes(long batch, long m, long n, long k, Precision w, Precision a, Precision c) {
        Supplier<String> what = () -> "bytes of GEMM batch=" + batch + " M=" + m + " N=" + n + " K=" + k;
        long one = Checks.add(
                Checks.add(activationBytes(a, m, k), weightBytes(w, a, n, k), what), c.storageBytes(m, n), what);
        return Checks.multiply(batch, one, what);
    }

    /**
     * B's (the weights') bytes: as stored, row-major scales included, for the weight-only kernels that read them so;
     * in 128 × 4 tiles like A's ({@link #activationBytes}) when the activations are block-scaled too, as a block-scaled
     * matmul reads both operands (N not a multiple of 128 or K/block not of 4 then reads padding).
     */
    static long weightBytes(Precision w, Precision a, long n, long k) {
        return rowScaled(a) && rowScaled(w) ? activationBytes(w, n, k) : w.storageBytes(n, k);
    }

    /**
     * A's bytes: its elements and scales; block scales along K (NVFP4, MX) as the block-scaled matmul reads them,
     * in 128-row tiles ({@link ScaleTiles}), so at M = 1 a block-scaled A still reads 128 rows of scales. The one rule
     * for an activation operand's bytes, here and in {@link GroupedGemm}.
     */
    static long activationBytes(Precision a, long m, long k) {
        if (!rowScaled(a) || m > Integer.MAX_VALUE) {
            return a.storageBytes(m, k);
        }
        long scales = ScaleTiles.scaleBytes(a, (int) m, k);
        return Checks.add(
                Checks.add(a.elementBytes(m, k), scales, () -> "bytes of A"), a.tensorScaleBytes(), () -> "bytes of A");
    }

    /** Whether {@code p} carries block scales along its rows (NVFP4, MX), the scales a block-scaled matmul tiles. */
    private static boolean rowScaled(Precision p) {
        return p.blockScaling()
                .filter(s -> s.layout() == BlockScaling.Layout.ROWS)
                .isPresent();
    }
}
