package dev.roofline.quant.bench;

import dev.roofline.quant.block.Nvfp4Quantizer;
import dev.roofline.quant.block.Nvfp4Tensor;
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

import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * NVFP4 quantization of one BF16 weight matrix, BF16 bits in, ModelOpt layout out (target: at least 1 GB of BF16
 * input per second per core). Throughput in GB/s = 2 · rows · cols / (time per operation). Runs with the Vector API
 * module, as the quantizer's fast path needs it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--add-modules=jdk.incubator.vector")
public class Nvfp4QuantizeBenchmark {
    @Param({"4096"})
    public int rows;

    @Param({"4096"})
    public int cols;

    private short[] bf16;

    @Setup
    public void setUp() {
        Random r = new Random(1);
        bf16 = new short[rows * cols];
        for (int i = 0; i < bf16.length; i++) {
            float w = (float) (r.nextGaussian() * 0.02 * (r.nextInt(1000) == 0 ? 50 : 1));
            bf16[i] = (short) (Float.floatToRawIntBits(w) >>> 16);
        }
    }

    @Benchmark
    public Nvfp4Tensor bf16ToNvfp4() {
        return Nvfp4Quantizer.modelOpt().quantizeBf16(bf16, rows, cols);
    }
}
