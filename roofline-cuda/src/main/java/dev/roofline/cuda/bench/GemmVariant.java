package dev.roofline.cuda.bench;

import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.blas.MatmulOptions;

import java.util.List;

/**
 * A cuBLASLt product to benchmark: its operand precision and, for FP8, whether the tensor cores accumulate in their
 * fast reduced precision ({@code CUBLASLT_MATMUL_DESC_FAST_ACCUM}), kept apart from the default because it trades
 * accuracy for speed.
 */
public record GemmVariant(Precision precision, boolean fastAccumulation) {
    /** Appended to the label of a product with fast accumulation. */
    public static final String FAST_ACCUM = " fast accum";

    public GemmVariant {
        if (fastAccumulation && precision != Precision.FP8_E4M3 && precision != Precision.FP8_E5M2) {
            throw new IllegalArgumentException("fast accumulation applies to FP8 only, got " + precision.displayName());
        }
    }

    public static GemmVariant of(Precision p) {
        return new GemmVariant(p, false);
    }

    public static List<GemmVariant> of(List<Precision> precisions) {
        return precisions.stream().map(GemmVariant::of).toList();
    }

    /** The planning options: {@code candidates} heuristic algorithms, fast accumulation when asked. */
    public MatmulOptions options(int candidates) {
        return MatmulOptions.defaults().withAlgorithms(candidates).withFastAccumulation(fastAccumulation);
    }

    /** e.g. "FP8 E4M3 -> FP16 fast accum" for {@code gemm} in this variant. */
    public String label(dev.roofline.core.roofline.Gemm gemm) {
        return gemm.weights().displayName() + " -> " + gemm.output().displayName()
                + (fastAccumulation ? FAST_ACCUM : "");
    }
}
