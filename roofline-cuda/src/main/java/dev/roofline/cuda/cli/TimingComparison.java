package dev.roofline.cuda.cli;

import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.bench.BenchmarkOptions;
import dev.roofline.cuda.bench.GemmBenchmark;
import dev.roofline.cuda.bench.GemmVariant;
import dev.roofline.cuda.bench.Measurement;
import dev.roofline.cuda.bench.Sweep;
import dev.roofline.cuda.blas.CublasLt;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * One large product timed four ways, from the simplest method to this harness's: the heuristic's first algorithm or
 * the fastest of 4 or 32 candidates, with launches that each wait for the last or run back to back. Says which of
 * the two choices moves the rate.
 */
final class TimingComparison {
    record Method(String name, int candidates, BenchmarkOptions options) {}

    static final List<Method> METHODS = List.of(
            new Method("heuristic's first, each launch waits", 1, BenchmarkOptions.isolated()),
            new Method("fastest of 4, each launch waits", 4, BenchmarkOptions.isolated()),
            new Method(
                    "fastest of " + GemmBenchmark.CANDIDATES + ", each launch waits",
                    GemmBenchmark.CANDIDATES,
                    BenchmarkOptions.isolated()),
            new Method(
                    "fastest of " + GemmBenchmark.CANDIDATES + ", back to back",
                    GemmBenchmark.CANDIDATES,
                    BenchmarkOptions.defaults()));

    private TimingComparison() {}

    static void print(PrintStream out, CublasLt lt, Device device, Stream stream, long n, List<GemmVariant> variants) {
        out.printf(Locale.ROOT, "timing method comparison, %d^3 (methods in this order, one after another):%n", n);
        out.printf(
                Locale.ROOT,
                "%-28s %-40s %10s %10s %10s %9s%n",
                "product",
                "method",
                "median us",
                "min us",
                "p90 us",
                "TFLOPS");
        Roofline sheet = Roofline.on(device.hardware());
        for (GemmVariant v : variants) {
            Gemm g = Sweep.gemmFor(Gemm.of(n, n, n), v.precision());
            for (Method m : METHODS) {
                try {
                    Measurement r =
                            GemmBenchmark.measure(lt, device, stream, g, sheet, m.options(), v.options(m.candidates()));
                    out.printf(
                            Locale.ROOT,
                            "%-28s %-40s %10.2f %10.2f %10.2f %9.1f%n",
                            r.label(),
                            m.name(),
                            r.time().medianMicros(),
                            r.time().minMicros(),
                            r.time().p90Micros(),
                            r.teraFlopsPerSecond());
                } catch (RuntimeException e) {
                    out.printf(Locale.ROOT, "%-28s %-40s failed: %s%n", v.label(g), m.name(), e);
                }
            }
        }
    }

    static List<GemmVariant> defaultVariants() {
        return List.of(
                GemmVariant.of(Precision.BF16), GemmVariant.of(Precision.FP16), GemmVariant.of(Precision.FP8_E4M3));
    }
}
