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
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream read reads exactly the words asked for: a thread folds what it read by XOR and stores the fold when it
 * equals {@link StreamRead#KEY}, so words arranged to fold to the key in one thread show whether that thread read them
 * all, and a CPU model of every thread's fold says what the sink must hold.
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

    /**
     * What the kernel stores, on the CPU: thread t of {@code grid} blocks folds by XOR the four ints of words t,
     * t + stride, … below {@code words}; the sink holds the key when any thread's fold is the key, else stays 0.
     */
    private static int expectedSink(int[] ints, int words, int grid) {
        int stride = grid * StreamRead.THREADS;
        for (int t = 0; t < stride; t++) {
            int fold = 0;
            for (int w = t; w < words; w += stride) {
                fold ^= ints[4 * w] ^ ints[4 * w + 1] ^ ints[4 * w + 2] ^ ints[4 * w + 3];
            }
            if (fold == StreamRead.KEY) {
                return StreamRead.KEY;
            }
        }
        return 0;
    }

    @Test
    void everyRoundAndTheTailOfAThreadAreRead() {
        // 12 grid strides and 7 words: each thread of the first 7 reads three unrolled rounds of 4 words and one word
        // in the tail loop. Random words; thread 5's last word is set so that its fold is the key.
        int grid = read.grid(Integer.MAX_VALUE); // the most blocks a read launches here
        int stride = grid * StreamRead.THREADS;
        int words = 12 * stride + 7;
        assertThat(read.grid(words)).isEqualTo(grid);
        int[] ints = new SplittableRandom(20261126).ints(4L * words).toArray();
        int last = 5 + 12 * stride;
        int fold = 0;
        for (int w = 5; w < words; w += stride) {
            fold ^= ints[4 * w] ^ ints[4 * w + 1] ^ ints[4 * w + 2] ^ ints[4 * w + 3];
        }
        ints[4 * last] ^= fold ^ StreamRead.KEY;
        ByteBuffer bytes = ByteBuffer.allocate(16 * words).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asIntBuffer().put(ints);
        try (DeviceBuffer b = DeviceBuffer.allocate(16L * words)) {
            b.copyFrom(bytes.array());
            assertThat(sinkAfter(() -> read.read(b, 0, 16L * words, stream))).isEqualTo(StreamRead.KEY);
            // without the tail word: thread 5 folds to something else, and so, for these words, does every thread
            int shortGrid = read.grid(last);
            assertThat(expectedSink(ints, last, shortGrid)).isZero();
            assertThat(sinkAfter(() -> read.read(b, 0, 16L * last, stream))).isZero();
        }
    }
}
