package dev.roofline.cuda.kernels;

import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream read reads exactly the words asked for: a thread folds what it read by XOR and stores the fold when it
 * equals {@link StreamRead#KEY}, so a buffer whose only non-zero words fold to the key in one thread shows whether
 * those words were read.
 */
@RequiresGpu
class StreamReadIT {
    private static StreamRead read;
    private static Stream stream;

    @BeforeAll
    static void open() {
        read = StreamRead.load(KernelLaunch.ORDERED);
        stream = Stream.create();
    }

    @AfterAll
    static void close() {
        if (stream != null) {
            stream.close();
        }
        if (read != null) {
            read.close();
        }
    }

    /** {@code words} 16-byte words, zero but for the first int of each of {@code at}, which holds {@code value}. */
    private static byte[] words(int words, int[] at, int[] value) {
        ByteBuffer b = ByteBuffer.allocate(16 * words).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < at.length; i++) {
            b.putInt(16 * at[i], value[i]);
        }
        return b.array();
    }

    private static int sinkAfter(Runnable enqueue) {
        read.sink().fill(0);
        Cuda.synchronize(); // the fill runs on the default stream, which the read's stream does not wait for
        enqueue.run();
        stream.synchronize();
        return read.sink().toIntArray()[0];
    }

    @Test
    void aReadStopsAtItsLastWordAndStartsAtItsOffset() {
        try (DeviceBuffer b = DeviceBuffer.allocate(16 * 64)) {
            b.copyFrom(words(64, new int[] {37}, new int[] {StreamRead.KEY}));
            assertThat(sinkAfter(() -> read.read(b, 0, 16 * 64, stream))).isEqualTo(StreamRead.KEY);
            // words 0 .. 36 only, the last one by its first byte
            assertThat(sinkAfter(() -> read.read(b, 0, 16 * 36 + 1, stream))).isZero();
            assertThat(sinkAfter(() -> read.read(b, 16 * 37, 16, stream))).isEqualTo(StreamRead.KEY);
            assertThat(sinkAfter(() -> read.read(b, 16 * 38, 16 * 26, stream))).isZero();
        }
    }

    @Test
    void everyRoundOfAThreadIsRead() {
        // 2^20 words: 1024 blocks on a GPU of 128 SMs or more (fewer SMs: more rounds per thread), stride g x 256.
        // Thread 5 reads words 5 + j x stride; the key is split over its first and its last word, so the fold
        // equals the key only if both were read.
        int words = 1 << 20;
        int stride = StreamRead.grid(words, Cuda.currentDevice().smCount()) * StreamRead.THREADS;
        int last = 5 + (words - 1 - 5) / stride * stride;
        int mask = 0x5A5A5A5A;
        try (DeviceBuffer b = DeviceBuffer.allocate(16L * words)) {
            b.copyFrom(words(words, new int[] {5, last}, new int[] {StreamRead.KEY ^ mask, mask}));
            assertThat(sinkAfter(() -> read.read(b, 0, 16L * words, stream))).isEqualTo(StreamRead.KEY);
            // one word short of the last: the fold is KEY ^ mask
            assertThat(sinkAfter(() -> read.read(b, 0, 16L * last, stream))).isZero();
        }
    }
}
