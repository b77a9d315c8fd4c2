package dev.roofline.core.bench;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.model.Models;
import dev.roofline.core.parallel.Deployment;
import dev.roofline.core.parallel.Serving;
import dev.roofline.core.parallel.ServingSearch;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Workload;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Issue 17's targets: one serving prediction (TTFT, time per output token, memory) at most 50 µs; a search over at
 * least 1,000 setups at most 1 s on one core. The prompt length rotates so nothing is constant-folded.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ServingBenchmark {

    private final Deployment tp8 = Deployment.tensorParallel(8, Interconnect.NVLINK_4);
    private final Workload fp8 = Workload.decode(1, 1).withWeights(Precision.FP8_E4M3);
    private int i;

    /** Llama-3-70B on 8 H100s at TP 8: 16 requests of 2048 + (0..255) prompt and 256 generated tokens. */
    @Benchmark
    public double servingPrediction() {
        return Serving.predict(Models.LLAMA_3_70B, Hardware.H100_SXM, tp8, fp8, 2048 + (i++ & 255), 256, 16)
                .tpotSeconds();
    }

    /**
     * Qwen3-30B-A3B on 16 H100s: 15 data x tensor x pipeline splits with the experts split or whole (25 setups of
     * GPUs), 11 weight precisions, concurrencies 1 to 1024: 3,023 setups priced ({@code Result.tried}).
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public int search() {
        return ServingSearch.run(
                        Models.QWEN3_30B_A3B,
                        Hardware.H100_SXM,
                        Interconnect.NVLINK_4,
                        16,
                        512 + (i++ & 255),
                        128,
                        10.0,
                        1.0,
                        PRECISIONS)
                .tried();
    }

    static final List<Precision> PRECISIONS = List.of(
            Precision.FP16,
            Precision.BF16,
            Precision.FP8_E4M3,
            Precision.FP8_E5M2,
            Precision.INT8,
            Precision.INT4_G128,
            Precision.NVFP4,
            Precision.MXFP4,
            Precision.MXFP8_E4M3,
            Precision.MXFP6_E3M2,
            Precision.NF4);
}
