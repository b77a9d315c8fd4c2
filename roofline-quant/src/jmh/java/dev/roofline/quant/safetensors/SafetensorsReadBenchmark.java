package dev.roofline.quant.safetensors;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Read throughput of a 256 MiB BF16 checkpoint (64 tensors of 2048 × 1024, Gaussian weights with outliers), read
 * tensor by tensor from the mapping. One operation is one pass over all 256 MiB, so GiB/s = ops/s / 4. The file is
 * written in setup and stays in the page cache: this measures mapping and decoding, not the disk.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SafetensorsReadBenchmark {
    private static final int TENSORS = 64;
    private static final long ROWS = 2048;
    private static final long COLUMNS = 1024;
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Path directory;
    private SafetensorsFile file;
    private float[] scratch;

    @Setup
    public void setUp() throws IOException {
        int elements = (int) (ROWS * COLUMNS);
        ByteBuffer weights = ByteBuffer.allocate(2 * elements).order(ByteOrder.LITTLE_ENDIAN);
        Random random = new Random(7);
        for (int i = 0; i < elements; i++) {
            float w = (float) (random.nextGaussian() * 0.02 * (random.nextInt(1000) == 0 ? 50 : 1));
            weights.putShort((short) (Float.floatToRawIntBits(w) >>> 16));
        }
        SafetensorsWriter writer = SafetensorsWriter.create().metadata("format", "pt");
        for (int t = 0; t < TENSORS; t++) {
            writer.add("model.layers." + t + ".weight", Dtype.BF16, List.of(ROWS, COLUMNS), weights.clear());
        }
        directory = Files.createTempDirectory("safetensors-bench");
        Path path = directory.resolve("model.safetensors");
        writer.write(path);
        file = SafetensorsFile.open(path);
        scratch = new float[elements];
    }

    /** BF16 → float[] for every tensor, into one reused array (what a quantizer does before its math). */
    @Benchmark
    public void bf16ToFloats(Blackhole blackhole) {
        for (TensorInfo t : file.tensors()) {
            file.readFloats(t, 0, scratch, 0, (int) t.elementCount());
            blackhole.consume(scratch);
        }
    }

    /** Raw bytes: sum every tensor's bytes 8 at a time (the ceiling for any decoding). */
    @Benchmark
    public long sumBytes() {
        long sum = 0;
        for (TensorInfo t : file.tensors()) {
            MemorySegment bytes = file.segment(t);
            for (long offset = 0; offset < bytes.byteSize(); offset += Long.BYTES) {
                sum += bytes.get(U64, offset);
            }
        }
        return sum;
    }

    @TearDown
    public void tearDown() throws IOException {
        file.close();
        Files.deleteIfExists(directory.resolve("model.safetensors"));
        Files.deleteIfExists(directory);
    }
}
