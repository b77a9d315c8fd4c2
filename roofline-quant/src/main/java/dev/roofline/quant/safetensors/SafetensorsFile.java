package dev.roofline.quant.safetensors;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A memory-mapped, validated {@code .safetensors} file. Opening reads and checks only the header (length limit,
 * JSON, dtypes, shapes, byte ranges in bounds and disjoint); tensor bytes stay on disk until touched, so reading a
 * checkpoint tensor by tensor needs heap for one tensor at a time, never the file.
 *
 * <pre>{@code
 * try (SafetensorsFile file = SafetensorsFile.open(Path.of("model.safetensors"))) {
 *     for (TensorInfo t : file.tensors()) {             // file order
 *         MemorySegment bytes = file.segment(t);         // read-only, little-endian bytes
 *     }
 *     float[] w = file.floats("model.embed_tokens.weight"); // F32/F16/BF16/F8/F64 → float
 * }
 * }</pre>
 *
 * Segments and buffers handed out are valid until {@link #close()}; the mapping is shared, so they may be read from
 * several threads. Gaps between tensors are tolerated; bytes after the last tensor are refused
 * ({@link FormatViolation#TRAILING_BYTES}), as the reference implementation refuses them. Every dtype of the
 * reference implementation is read ({@link Dtype}). The header is parsed in place from the mapping, token by token,
 * into compact tables: a header of a million tensors (about 80 MB) opens in well under 256 MiB of heap. If another process truncates the file while it is mapped, the JVM may fail with
 * {@link InternalError}, as with any mapped file.
 */
public final class SafetensorsFile implements AutoCloseable {
    /**
     * Default header-length limit: 100,000,000 bytes, the reference implementation's {@code MAX_HEADER_SIZE} (a
     * header of exactly that length is read, one byte more is refused).
     */
    public static final long DEFAULT_MAX_HEADER_BYTES = 100_000_000L;

    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Path path;
    private final Arena arena;
    private final MemorySegment data;
    private final Header header;
    private final AtomicBoolean closed = new AtomicBoolean();

    private SafetensorsFile(Path path, Arena arena, MemorySegment data, Header header) {
        this.path = path;
        this.arena = arena;
        this.data = data;
        this.header = header;
    }

    /** Opens and validates {@code path} with the {@linkplain #DEFAULT_MAX_HEADER_BYTES default header limit}. */
    public static SafetensorsFile open(Path path) throws IOException {
        return open(path, DEFAULT_MAX_HEADER_BYTES);
    }

    /**
     * Opens and validates {@code path}, refusing headers longer than {@code maxHeaderBytes} (and, whatever the limit,
     * longer than 2^31 − 1 bytes).
     *
     * @throws SafetensorsFormatException if the file breaks the format; {@link SafetensorsFormatException#violation()}
     *                                    says how
     * @throws IOException if the file cannot be read
     */
    public static SafetensorsFile open(Path path, long maxHeaderBytes) throws IOException {
        Objects.requireNonNull(path, "path");
        if (maxHeaderBytes <= 0) {
            throw new IllegalArgumentException("maxHeaderBytes must be positive, got " + maxHeaderBytes);
        }
        requireRegularFile(path);
        Arena arena = Arena.ofShared();
        boolean opened = false;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size < Long.BYTES) {
                throw new SafetensorsFormatException(
                        FormatViolation.TRUNCATED_FILE,
                        path + ": file has " + size + " bytes, fewer than the 8-byte header length");
            }
            MemorySegment file = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            long headerBytes = file.get(U64, 0);
            long limit = Math.min(maxHeaderBytes, Integer.MAX_VALUE); // the parser reads one ByteBuffer
            if (Long.compareUnsigned(headerBytes, limit) > 0) {
                throw new SafetensorsFormatException(
                        FormatViolation.HEADER_TOO_LARGE,
                        path + ": header length " + Long.toUnsignedString(headerBytes) + " exceeds the limit of "
                                + limit + " bytes");
            }
            if (headerBytes > size - Long.BYTES) {
                throw new SafetensorsFormatException(
                        FormatViolation.HEADER_BEYOND_FILE,
                        path + ": header length " + headerBytes + " exceeds the " + (size - Long.BYTES)
                                + " bytes after the length field");
            }
            long dataStart = Long.BYTES + headerBytes;
            Header header =
                    HeaderParser.parse(file.asSlice(Long.BYTES, headerBytes), size - dataStart, path.toString());
            SafetensorsFile result =
                    new SafetensorsFile(path, arena, file.asSlice(dataStart).asReadOnly(), header);
            opened = true;
            return result;
        } finally {
            if (!opened) {
                arena.close();
            }
        }
    }

    /**
     * Refuses anything but a regular file (after following links) before opening it: opening a FIFO would block
     * until some writer appears, and a folder cannot be mapped.
     */
    private static void requireRegularFile(Path path) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
        if (attributes.isDirectory()) {
            throw new SafetensorsFormatException(
                    FormatViolation.NOT_A_FILE, path + ": is a folder, not a .safetensors file");
        }
        if (!attributes.isRegularFile()) {
            throw new SafetensorsFormatException(
                    FormatViolation.NOT_A_FILE,
                    path + ": is not a regular file (a FIFO, device or socket); a .safetensors file must be one");
        }
    }

    public Path path() {
        return path;
    }

    /** The {@code __metadata__} map, empty when the header has none. */
    public Map<String, String> metadata() {
        return header.metadata();
    }

    /** All tensors in file order (ascending byte offset). */
    public List<TensorInfo> tensors() {
        return header.tensors();
    }

    /** The tensor called {@code name}, if the file has one. */
    public Optional<TensorInfo> find(String name) {
        return Optional.ofNullable(header.find(name));
    }

    /** The tensor called {@code name}; {@link NoSuchElementException} naming the file if there is none. */
    public TensorInfo tensor(String name) {
        TensorInfo t = header.find(name);
        if (t == null) {
            throw new NoSuchElementException(
                    "no tensor '" + name + "' in " + path + " (" + header.size() + " tensors)");
        }
        return t;
    }

    /** The bytes of tensor {@code name}: a read-only slice of the mapping, little-endian as the format stores them. */
    public MemorySegment segment(String name) {
        return segment(tensor(name));
    }

    /** The bytes of {@code tensor}, which must come from this file. */
    public MemorySegment segment(TensorInfo tensor) {
        ensureOpen();
        if (!tensor.equals(header.find(tensor.name()))) {
            throw new IllegalArgumentException("tensor " + tensor + " is not a tensor of " + path);
        }
        return data.asSlice(tensor.begin(), tensor.byteSize());
    }

    /** The bytes of tensor {@code name} as a read-only little-endian {@link ByteBuffer} (tensors under 2 GiB). */
    public ByteBuffer buffer(String name) {
        TensorInfo t = tensor(name);
        if (t.byteSize() > Integer.MAX_VALUE) {
            throw new UnsupportedOperationException("tensor '" + name + "' has " + t.byteSize()
                    + " bytes, more than a ByteBuffer holds; use segment(\"" + name + "\")");
        }
        return segment(t).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Tensor {@code name} decoded to floats (F32, F16, BF16, F8_E4M3, F8_E5M2, F8_E8M0 exactly; F64 rounded). */
    public float[] floats(String name) {
        TensorInfo t = tensor(name);
        if (t.elementCount() > Integer.MAX_VALUE - 8) {
            throw new UnsupportedOperationException("tensor '" + name + "' has " + t.elementCount()
                    + " elements, more than a float[] holds; use readFloats in chunks");
        }
        float[] values = new float[(int) t.elementCount()];
        readFloats(t, 0, values, 0, values.length);
        return values;
    }

    /**
     * Decodes elements [{@code first}, {@code first + count}) of {@code tensor} into {@code dst} from
     * {@code dstIndex}: reads a large tensor in bounded chunks.
     */
    public void readFloats(TensorInfo tensor, long first, float[] dst, int dstIndex, int count) {
        MemorySegment bytes = segment(tensor);
        if (first < 0 || count < 0 || first > tensor.elementCount() - count) {
            throw new IndexOutOfBoundsException("elements [" + first + ", " + first + " + " + count + ") are not within"
                    + " the " + tensor.elementCount() + " elements of tensor '" + tensor.name() + "'");
        }
        Objects.checkFromIndexSize(dstIndex, count, dst.length);
        FloatDecoding.decode(tensor, bytes, first, dst, dstIndex, count);
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("safetensors file " + path + " is already closed");
        }
    }

    /** Unmaps the file; segments and buffers handed out become unusable. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            arena.close();
        }
    }

    @Override
    public String toString() {
        return "SafetensorsFile[" + path + ", " + header.size() + " tensors" + (closed.get() ? ", closed" : "") + "]";
    }
}
