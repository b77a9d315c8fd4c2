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

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * Opening a valid safetensors file whose header lists 1,048,576 tensors (about 82 MB of JSON, under the reference
 * implementation's 100,000,000-byte limit) in a JVM limited to 256 MiB of heap: parse, validate and index the header.
 * One operation is one {@link SafetensorsFile#open} and a lookup of the last tensor by name. The file, written in
 * setup without holding the header in memory, stays in the page cache, so this measures parsing, not the disk.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = "-Xmx256m")
public class SafetensorsHeaderBenchmark {
    static final int TENSORS = 1 << 20;

    private Path directory;
    private Path path;

    @Setup
    public void setUp() throws IOException {
        directory = Files.createTempDirectory("safetensors-header-bench");
        path = directory.resolve("model.safetensors");
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.position(Long.BYTES);
            long headerBytes;
            OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 20);
            headerBytes = writeHeader(out);
            out.write(new byte[TENSORS]); // one U8 per tensor
            out.flush();
            channel.write(
                    ByteBuffer.allocate(Long.BYTES)
                            .order(ByteOrder.LITTLE_ENDIAN)
                            .putLong(0, headerBytes),
                    0);
        }
    }

    /** {"__metadata__":{...},"blk.L.ffn.E.up":{"dtype":"U8","shape":[1],"data_offsets":[i,i+1]},...}; its length. */
    private static long writeHeader(OutputStream out) throws IOException {
        long written = 0;
        StringBuilder b = new StringBuilder("{\"__metadata__\":{\"format\":\"pt\"}");
        for (int i = 0; i < TENSORS; i++) {
            b.append(",\"blk.")
                    .append(i >>> 14)
                    .append(".ffn.")
                    .append(i & 0x3FFF)
                    .append(".up\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[")
                    .append(i)
                    .append(',')
                    .append(i + 1)
                    .append("]}");
            if (b.length() > 1 << 16) {
                written += flush(b, out);
            }
        }
        b.append('}');
        return written + flush(b, out);
    }

    private static long flush(StringBuilder b, OutputStream out) throws IOException {
        byte[] bytes = b.toString().getBytes(StandardCharsets.US_ASCII);
        out.write(bytes);
        b.setLength(0);
        return bytes.length;
    }

    @Benchmark
    public long openAndFindLast() throws IOException {
        try (SafetensorsFile file = SafetensorsFile.open(path)) {
            return file.tensor("blk.63.ffn.16383.up").begin() + file.tensors().size();
        }
    }

    @TearDown
    public void tearDown() throws IOException {
        Files.deleteIfExists(path);
        Files.deleteIfExists(directory);
    }
}
