package dev.roofline.cuda.bench;

import dev.roofline.core.energy.PowerMeter;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.blas.CublasLt;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** Shapes x precisions: each product timed and predicted; a shape a precision cannot run becomes a failure row. */
public final class Sweep {
    private Sweep() {}

    /**
     * The product of {@code shape}'s dimensions in precision {@code p} with the output cuBLASLt gives it: FP16 and BF16
     * write their own type, FP8 writes FP16, INT8 INT32 (stated as FP32, the same 4 bytes), TF32 and FP32 FP32.
     */
    public static Gemm gemmFor(Gemm shape, Precision p) {
        Precision out =
                switch (p) {
                    case FP16, BF16 -> p;
                    case FP8_E4M3, FP8_E5M2 -> Precision.FP16;
                    case INT8, FP32, TF32 -> Precision.FP32;
                    // block-scaled products write BF16 here, as serving engines do (cuBLASLt also writes FP16 and FP32)
                    case NVFP4, MXFP8_E4M3 -> Precision.BF16;
                    default -> throw new IllegalArgumentException("no cuBLASLt benchmark for " + p.displayName());
                };
        return shape.in(p).withOutput(out).named(shape.name() + " " + p.shortName());
    }

    /** Uses CUDA-graph replay for products with {@code M <= 16}, whose launches are short; no energy phase. */
    public static List<BenchmarkResult> run(
            CublasLt lt,
            Device device,
            Stream stream,
            List<Gemm> shapes,
            List<Precision> precisions,
            Roofline roofline,
            BenchmarkOptions o) {
        return run(lt, device, stream, shapes, GemmVariant.of(precisions), roofline, o, Optional.empty(), r -> {});
    }

    /**
     * Each shape in each variant, the fastest of {@link GemmBenchmark#CANDIDATES} heuristic algorithms; graph replay
     * of 20 launches per sample for {@code M <= 16}, whose launches are short; an energy phase per product given a meter.
     * Each result is predicted by {@code roofline} (pass the measured ceilings, {@link DeviceCeilings#applyTo}) and on
     * the device's datasheet. {@code done} sees each result as it is finished (progress, and output that outlives a run
     * stopped half-way).
     */
    public static List<BenchmarkResult> run(
            CublasLt lt,
            Device device,
            Stream stream,
            List<Gemm> shapes,
            List<GemmVariant> variants,
            Roofline roofline,
            BenchmarkOptions o,
            Optional<PowerMeter> meter,
            Consumer<BenchmarkResult> done) {
        List<BenchmarkResult> rows = new ArrayList<>();
        for (Gemm shape : shapes) {
            for (GemmVariant v : variants) {
                Gemm g = gemmFor(shape, v.precision());
                BenchmarkOptions opts = g.m() <= 16 ? o.withGraph(20) : o;
                try {
                    rows.add(GemmBenchmark.measure(
                                    lt, device, stream, g, roofline, opts, v.options(GemmBenchmark.CANDIDATES), meter)
                            .withLabel(v.label(g)));
                } catch (RuntimeException e) {
                    rows.add(BenchmarkFailure.of(v.label(g), g, e));
                }
                done.accept(rows.getLast());
            }
        }
        return rows;
    }
}
