package dev.roofline.quant.safetensors;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The safetensors weights of a Hugging Face model directory: shards listed by {@code model.safetensors.index.json},
 * or a single {@code model.safetensors}. Opening checks the index and that every shard it names exists; each shard
 * is mapped on first use and then checked to contain every tensor the index assigns to it.
 *
 * <pre>{@code
 * try (ShardedCheckpoint checkpoint = ShardedCheckpoint.open(Path.of("Llama-3.1-8B"))) {
 *     for (String name : checkpoint.names()) {
 *         SafetensorsFile shard = checkpoint.fileOf(name);   // opened lazily, kept open until close()
 *         MemorySegment bytes = shard.segment(name);
 *     }
 * }
 * }</pre>
 *
 * Thread-safe; {@link #close()} unmaps every shard opened so far and is idempotent. Write one with
 * {@link SafetensorsWriter#writeSharded}.
 */
public final class ShardedCheckpoint implements AutoCloseable {
    public static final String INDEX_FILE = "model.safetensors.index.json";
    public static final String SINGLE_FILE = "model.safetensors";

    private final Path directory;
    private final Map<String, String> weightMap;
    private final OptionalLong totalSize;
    private final Map<String, SafetensorsFile> opened = new HashMap<>();
    private boolean closed;

    private ShardedCheckpoint(Path directory, Map<String, String> weightMap, OptionalLong totalSize) {
        this.directory = directory;
        this.weightMap = weightMap;
        this.totalSize = totalSize;
    }

    /** Opens {@code directory}'s index if it has one, else its {@code model.safetensors}. */
    public static ShardedCheckpoint open(Path directory) throws IOException {
        Path index = directory.resolve(INDEX_FILE);
        if (Files.isRegularFile(index)) {
            return openIndex(index);
        }
        Path single = directory.resolve(SINGLE_FILE);
        if (!Files.isRegularFile(single)) {
            throw new NoSuchFileException(
                    directory.toString(), null, "has neither " + INDEX_FILE + " nor " + SINGLE_FILE);
        }
        SafetensorsFile file = SafetensorsFile.open(single);
        Map<String, String> weightMap = new LinkedHashMap<>();
        file.tensors().forEach(t -> weightMap.put(t.name(), SINGLE_FILE));
        long total = file.tensors().stream().mapToLong(TensorInfo::byteSize).sum();
        ShardedCheckpoint checkpoint = new ShardedCheckpoint(directory, weightMap, OptionalLong.of(total));
        checkpoint.opened.put(SINGLE_FILE, file);
        return checkpoint;
    }

    /** Opens the checkpoint described by {@code indexFile}; its shards live in the same directory. */
    public static ShardedCheckpoint openIndex(Path indexFile) throws IOException {
        ShardIndex index = ShardIndex.read(indexFile, SafetensorsFile.DEFAULT_MAX_HEADER_BYTES);
        Path directory = indexFile.toAbsolutePath().getParent();
        ShardedCheckpoint checkpoint = new ShardedCheckpoint(directory, index.weightMap(), index.totalSize());
        for (String shard : checkpoint.shards()) {
            if (!Files.isRegularFile(directory.resolve(shard))) {
                throw new SafetensorsFormatException(
                        FormatViolation.MISSING_SHARD,
                        indexFile + ": shard '" + shard + "' (of tensor '" + checkpoint.firstTensorOf(shard)
                                + "') does not exist in " + directory);
            }
        }
        return checkpoint;
    }

    public Path directory() {
        return directory;
    }

    /** All tensor names, in the index's order (file order for a single file). */
    public List<String> names() {
        return List.copyOf(weightMap.keySet());
    }

    public boolean contains(String name) {
        return weightMap.containsKey(name);
    }

    /** The shard file names, each once, in the order the index first names them. */
    public List<String> shards() {
        return weightMap.values().stream().distinct().toList();
    }

    /** The index's {@code metadata.total_size} (the sum of tensor bytes for a single file), if declared. */
    public OptionalLong totalSize() {
        return totalSize;
    }

    /** The open shard holding tensor {@code name}, mapped and checked on first use. */
    public synchronized SafetensorsFile fileOf(String name) throws IOException {
        String shard = weightMap.get(Objects.requireNonNull(name, "name"));
        if (shard == null) {
            throw new NoSuchElementException(
                    "no tensor '" + name + "' in checkpoint " + directory + " (" + weightMap.size() + " tensors)");
        }
        if (closed) {
            throw new IllegalStateException("checkpoint " + directory + " is already closed");
        }
        SafetensorsFile file = opened.get(shard);
        if (file == null) {
            file = openShard(shard);
            opened.put(shard, file);
        }
        return file;
    }

    /** The header entry of tensor {@code name}. */
    public TensorInfo tensor(String name) throws IOException {
        return fileOf(name).tensor(name);
    }

    /** Opens every shard now, so that every format error surfaces at once rather than on first use. */
    public void validate() throws IOException {
        for (String shard : shards()) {
            fileOf(firstTensorOf(shard));
        }
    }

    private SafetensorsFile openShard(String shard) throws IOException {
        SafetensorsFile file = SafetensorsFile.open(directory.resolve(shard));
        for (Map.Entry<String, String> entry : weightMap.entrySet()) {
            if (entry.getValue().equals(shard) && file.find(entry.getKey()).isEmpty()) {
                file.close();
                throw new SafetensorsFormatException(
                        FormatViolation.MISSING_TENSOR,
                        directory.resolve(INDEX_FILE) + ": maps tensor '" + entry.getKey() + "' to shard '" + shard
                                + "', which does not contain it");
            }
        }
        return file;
    }

    private String firstTensorOf(String shard) {
        return weightMap.entrySet().stream()
                .filter(e -> e.getValue().equals(shard))
                .findFirst()
                .orElseThrow()
                .getKey();
    }

    /** Unmaps every shard opened so far. Idempotent. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            opened.values().forEach(SafetensorsFile::close);
            opened.clear();
        }
    }
}
