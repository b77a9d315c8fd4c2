package dev.roofline.cuda.kernels;

import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.internal.Cudart;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

/**
 * A kernel that reads bytes and does nothing else ({@code stream_read} in stream.cu, in the same fatbin as the GEMV
 * kernels): the floor under any kernel that must stream the same bytes. It waits for the kernel before it and then lets
 * the next one launch, as the decoder's kernels do, so a chain of reads launched like a decode step's kernels is that
 * step's floor: what it would take if every kernel only streamed what it must read.
 *
 * <pre>{@code
 * try (StreamRead r = StreamRead.load(KernelLaunch.PROGRAMMATIC);
 *         DeviceBuffer b = DeviceBuffer.allocate(1L << 30)) {
 *     r.read(b, 0, b.byteSize(), stream);
 * }
 * }</pre>
 */
public final class StreamRead implements AutoCloseable {
    /** Threads of a block (READ_THREADS in stream.cu). */
    static final int THREADS = 256;
    /** 16-byte loads each thread keeps in flight a round (READ_UNROLL). */
    static final int UNROLL = 4;
    /** Blocks an SM is given at most: 2048 threads, the most an SM of compute capability 9.0 runs. */
    static final int BLOCKS_PER_SM = 8;
    /** The most bytes one launch reads: the kernel counts 16-byte words in a 32-bit int. */
    public static final long MAX_BYTES = 16L * Integer.MAX_VALUE;
    /** Where a thread's fold of what it read is stored when it equals this word, so the loads stay in the kernel. */
    static final int KEY = 0x9E3779B9;

    private static final String KERNEL = "stream_read";

    private final KernelLibrary library;
    private final DeviceBuffer sink;
    private final int smCount;
    private final int blocksPerSm;

    private StreamRead(KernelLibrary library, DeviceBuffer sink, int smCount, int blocksPerSm) {
        this.library = library;
        this.sink = sink;
        this.smCount = smCount;
        this.blocksPerSm = blocksPerSm;
    }

    /** Loads the embedded fatbin into the current device's context; every read is launched as {@code launch} says. */
    public static StreamRead load(KernelLaunch launch) {
        Objects.requireNonNull(launch, "launch");
        Device device = Cuda.currentDevice();
        int blocksPerSm = blocksPerSm(Cudart.threadsPerSm(device.ordinal()));
        KernelLibrary library = KernelLibrary.load("stream-read kernel library", List.of(KERNEL), launch);
        DeviceBuffer sink = null;
        try {
            sink = DeviceBuffer.allocate(4);
            sink.fill(0);
            return new StreamRead(library, sink, device.smCount(), blocksPerSm);
        } catch (RuntimeException e) {
            if (sink != null) {
                sink.close();
            }
            library.close();
            throw e;
        }
    }

    /**
     * Enqueues a read of {@code bytes} of {@code src} from byte {@code offset}, rounded up to whole 16-byte words
     * (which {@code src} must hold).
     *
     * @throws IllegalArgumentException when {@code offset} is negative or not a multiple of 16, {@code bytes} is not
     *                                  in 1 … {@link #MAX_BYTES}, or the words run past the end of {@code src}
     */
    public void read(DeviceBuffer src, long offset, long bytes, Stream stream) {
        read(src, offset, bytes, false, stream);
    }

    /**
     * {@link #read}, in plain stream order when {@code inStreamOrder} whatever the launch mode this was loaded with
     * (as the decoder launches some of its kernels).
     */
    public void read(DeviceBuffer src, long offset, long bytes, boolean inStreamOrder, Stream stream) {
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(stream, "stream");
        int words = words(src.byteSize(), offset, bytes);
        MemorySegment from = MemorySegment.ofAddress(src.pointer().address() + offset);
        if (inStreamOrder) {
            library.launchOrdered(KERNEL, grid(words), THREADS, stream, from, words, KEY, sink);
        } else {
            library.launch(KERNEL, grid(words), THREADS, stream, from, words, KEY, sink);
        }
    }

    /**
     * The 16-byte words a read of {@code bytes} from {@code offset} of a buffer of {@code bufferBytes} takes.
     *
     * @throws IllegalArgumentException as {@link #read} says
     */
    static int words(long bufferBytes, long offset, long bytes) {
        if (offset < 0 || offset % 16 != 0) {
            throw new IllegalArgumentException("offset must be a multiple of 16 bytes >= 0, got " + offset);
        }
        if (bytes < 1 || bytes > MAX_BYTES) {
            throw new IllegalArgumentException("bytes must be in 1 .. " + MAX_BYTES + " (one launch), got " + bytes);
        }
        long words = Math.ceilDiv(bytes, 16);
        if (offset > bufferBytes || 16 * words > bufferBytes - offset) {
            throw new IllegalArgumentException("src holds " + bufferBytes + " bytes; reading " + bytes + " bytes ("
                    + words + " words of 16) from offset " + offset + " needs " + (offset + 16 * words));
        }
        return Math.toIntExact(words);
    }

    /**
     * Blocks an SM is given: as many as its {@code threadsPerSm} hold, at most {@link #BLOCKS_PER_SM} (6 on an SM of
     * 1536 threads, as compute capability 12.x has), so that the whole grid is resident at once.
     */
    static int blocksPerSm(int threadsPerSm) {
        return Math.clamp(threadsPerSm / THREADS, 1, BLOCKS_PER_SM);
    }

    /**
     * Blocks for {@code words}: one per {@link #THREADS} × {@link #UNROLL} words (a round of loads per thread), at
     * most {@code blocksPerSm} per SM, the rest of the words taken by the grid-stride loop.
     */
    static int grid(int words, int smCount, int blocksPerSm) {
        long rounds = Math.ceilDiv((long) words, (long) THREADS * UNROLL);
        return (int) Math.max(1, Math.min(rounds, (long) smCount * blocksPerSm));
    }

    /** The blocks a read of {@code words} launches on this device. */
    int grid(int words) {
        return grid(words, smCount, blocksPerSm);
    }

    /** The word the kernel stores a thread's fold to when it equals {@link #KEY}: 0 until one has. */
    DeviceBuffer sink() {
        return sink;
    }

    /** Unloads the library and frees the sink, the first time only; reads already enqueued still run. */
    @Override
    public void close() {
        try {
            sink.close();
        } finally {
            library.close();
        }
    }
}
