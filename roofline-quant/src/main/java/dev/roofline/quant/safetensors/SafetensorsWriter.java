package dev.roofline.quant.safetensors;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Collects tensors and metadata, then writes a {@code .safetensors} file atomically: everything goes to a temporary
 * file in the target's directory, forced to disk, then renamed over the target; after any failure (an I/O error, a
 * {@link TensorBytes} callback throwing) neither the target nor the temporary file exists. Tensors are written in
 * the order they were added; the header is compact JSON padded with spaces to a multiple of 8 bytes, as the
 * reference implementation writes it.
 *
 * <pre>{@code
 * SafetensorsWriter.create()
 *         .metadata("format", "pt")
 *         .add("w", Dtype.BF16, List.of(4096L, 4096L), weightSegment)
 *         .add("w_scale", Dtype.F32, List.of(), scaleBytes)
 *         .write(Path.of("out/model.safetensors"));
 * }</pre>
 *
 * Sources are referenced, not copied: keep them unchanged (and their arenas open) until {@link #write} returns.
 */
public final class SafetensorsWriter {
    private final Map<String, String> metadata = new LinkedHashMap<>();
    private final Map<String, PendingTensor> tensors = new LinkedHashMap<>();

    private SafetensorsWriter() {}

    public static SafetensorsWriter create() {
        return new SafetensorsWriter();
    }

    /** Adds a {@code __metadata__} entry (the Hugging Face convention is {@code "format": "pt"}). */
    public SafetensorsWriter metadata(String key, String value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        metadata.put(key, value);
        return this;
    }

    /** Adds a tensor whose little-endian bytes are {@code bytes}. */
    public SafetensorsWriter add(String name, Dtype dtype, List<Long> shape, byte[] bytes) {
        return add(name, dtype, shape, MemorySegment.ofArray(bytes));
    }

    /** Adds a tensor whose little-endian bytes are {@code bytes}' remaining bytes (position to limit). */
    public SafetensorsWriter add(String name, Dtype dtype, List<Long> shape, ByteBuffer bytes) {
        return add(name, dtype, shape, MemorySegment.ofBuffer(bytes));
    }

    /** Adds a tensor whose little-endian bytes are {@code bytes} (heap or native, e.g. another file's mapping). */
    public SafetensorsWriter add(String name, Dtype dtype, List<Long> shape, MemorySegment bytes) {
        long needed = byteCount(name, dtype, shape);
        if (bytes.byteSize() != needed) {
            throw new IllegalArgumentException("tensor '" + name + "': shape " + shape + " × " + dtype + " needs "
                    + needed + " bytes, got " + bytes.byteSize());
        }
        return put(new PendingTensor(name, dtype, shape, needed, PendingTensor.copying(bytes)));
    }

    /** Adds a tensor whose bytes {@code content} streams while the file is written. */
    public SafetensorsWriter add(String name, Dtype dtype, List<Long> shape, TensorBytes content) {
        Objects.requireNonNull(content, "content");
        return put(new PendingTensor(name, dtype, shape, byteCount(name, dtype, shape), content));
    }

    /** Adds a tensor copied from {@code source}, keeping its name, dtype and shape. */
    public SafetensorsWriter add(SafetensorsFile source, TensorInfo tensor) {
        return add(tensor.name(), tensor.dtype(), tensor.shape(), source.segment(tensor));
    }

    /** Bytes of tensor data added so far. */
    public long dataBytes() {
        return tensors.values().stream().mapToLong(PendingTensor::byteCount).reduce(0, Math::addExact);
    }

    /** Writes everything to {@code file}, atomically replacing it if it exists. */
    public void write(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        Path temp = FileWriting.writeTemp(file, FileWriting.safetensors(metadata, List.copyOf(tensors.values())));
        FileWriting.moveIntoPlace(temp, file);
    }

    /**
     * Writes a Hugging Face sharded checkpoint into {@code directory}: shards
     * {@code model-00001-of-0000N.safetensors} of at most {@code maxShardBytes} of tensor data each (a larger
     * tensor gets a shard of its own), every shard with this writer's metadata, and
     * {@code model.safetensors.index.json} last, so a reader never sees an index whose shards are missing. On
     * failure, the files this call created are removed (shards it replaced are not restored). Read it back with
     * {@link ShardedCheckpoint#open}.
     */
    public void writeSharded(Path directory, long maxShardBytes) throws IOException {
        ShardWriting.write(directory, maxShardBytes, metadata, new ArrayList<>(tensors.values()));
    }

    private static long byteCount(String name, Dtype dtype, List<Long> shape) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(dtype, "dtype");
        Objects.requireNonNull(shape, "shape");
        if (name.isEmpty() || name.equals(Header.METADATA_KEY)) {
            throw new IllegalArgumentException(
                    "tensor name must be non-empty and not " + Header.METADATA_KEY + ", got '" + name + "'");
        }
        try {
            return dtype.byteCount(shape);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(
                    "tensor '" + name + "': shape " + shape + " × " + dtype + " overflows a 64-bit byte count", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("tensor '" + name + "': " + e.getMessage(), e);
        }
    }

    private SafetensorsWriter put(PendingTensor tensor) {
        if (tensors.putIfAbsent(tensor.name(), tensor) != null) {
            throw new IllegalArgumentException("tensor name must be unique, '" + tensor.name() + "' was already added");
        }
        return this;
    }
}
