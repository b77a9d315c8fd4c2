package dev.roofline.core.bench;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.roofline.Roofline;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Throughput of GEMM predictions (target: at least 10^6 per second per core). Each call builds the operator and
 * prices it, as a sweep does; the shape and precision rotate so nothing is constant-folded.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RooflineBenchmark {

    private static final Precision[] PRECISIONS = {
        Precision.FP16, Precision.FP8_E4M3, Precision.INT4, Precision.NVFP4, Precision.MXFP4
    };
    private static final long[] SIZES = {1024, 4096, 8192, 14336, 28672};

    private Roofline roofline;
    private int i;

    @Setup
    public void setUp() {
        roofline = Roofline.on(Hardware.GB10);
    }

    /** Builds a GEMM (validating it) and predicts its time. */
    @Benchmark
    public double gemmPrediction() {
        int j = i++;
        long n = SIZES[j % SIZES.length];
        Gemm g = new Gemm(
                "bench",
                1,
                1 + (j & 15),
                n,
                SIZES[(j >> 3) % SIZES.length],
                PRECISIONS[j % PRECISIONS.length],
                Precision.FP16,
                Precision.FP16);
        Prediction p = roofline.predict(g);
        return p.timeSeconds();
    }
}
