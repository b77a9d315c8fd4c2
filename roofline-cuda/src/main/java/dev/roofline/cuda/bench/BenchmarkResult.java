package dev.roofline.cuda.bench;

import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Operator;

/**
 * One benchmarked operator, as every benchmark here returns it and {@link Report} renders it: a {@link Measurement}
 * (timed, with its predictions) or a {@link BenchmarkFailure} (why it could not be timed).
 */
public sealed interface BenchmarkResult permits Measurement, BenchmarkFailure {

    /** The variant that ran, e.g. "FP8 E4M3 -> FP16 fast accum" or "NVFP4". */
    String label();

    /** What ran: its shape, precisions, FLOPs and bytes. */
    Operator operator();

    /** "MxNxK" for a GEMM, otherwise the operator's name. */
    default String shape() {
        return switch (operator()) {
            case Gemm g -> g.m() + "x" + g.n() + "x" + g.k();
            default -> operator().name();
        };
    }
}
