package dev.roofline.core.bench;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Time of one whole-model prediction (target: at most 10 µs): build every operator of the forward pass, price each
 * on the roofline, sum the times. The context rotates so nothing is constant-folded.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ModelPredictionBenchmark {

    @Param({"Llama-3-8B", "DeepSeek-V3"})
    public String model;

    private Transformer transformer;
    private Workload decode;
    private int i;

    @Setup
    public void setUp() {
        Model m = Models.byName(model);
        transformer = Transformer.of(m, Hardware.GB10);
        decode = Workload.decode(1, 4096);
    }

    /** Decode step at batch 1, context 4096 + (0..1023). */
    @Benchmark
    public double decodePrediction() {
        return transformer.predict(decode.withContext(4096 + (i++ & 1023))).timeSeconds();
    }
}
