package dev.roofline.quant.safetensors;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Splits tensors into shards and writes them and their index; the index is moved into place last. */
final class ShardWriting {
    private ShardWriting() {}

    static void write(Path directory, long maxShardBytes, Map<String, String> metadata, List<PendingTensor> tensors)
            throws IOException {
        if (maxShardBytes <= 0) {
            throw new IllegalArgumentException("maxShardBytes must be positive, got " + maxShardBytes);
        }
        Files.createDirectories(directory);
        List<List<PendingTensor>> shards = split(tensors, maxShardBytes);
        List<Path> targets = new ArrayList<>();
        ObjectNode index = Json.MAPPER.createObjectNode();
        ObjectNode weightMap = Json.MAPPER.createObjectNode();
        long totalSize = 0;
        for (int i = 0; i < shards.size(); i++) {
            String file = String.format("model-%05d-of-%05d.safetensors", i + 1, shards.size());
            targets.add(directory.resolve(file));
            for (PendingTensor t : shards.get(i)) {
                weightMap.put(t.name(), file);
                totalSize = Math.addExact(totalSize, t.byteCount());
            }
        }
        index.putObject("metadata").put("total_size", totalSize);
        index.set("weight_map", weightMap);
        byte[] indexJson = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(index);
        targets.add(directory.resolve(ShardedCheckpoint.INDEX_FILE));

        List<Path> temps = new ArrayList<>();
        int moved = 0;
        boolean done = false;
        try {
            for (int i = 0; i < shards.size(); i++) {
                temps.add(FileWriting.writeTemp(targets.get(i), FileWriting.safetensors(metadata, shards.get(i))));
            }
            temps.add(FileWriting.writeTemp(targets.getLast(), out -> out.write(indexJson)));
            for (; moved < temps.size(); moved++) {
                FileWriting.moveIntoPlace(temps.get(moved), targets.get(moved));
            }
            done = true;
        } finally {
            if (!done) {
                temps.subList(moved, temps.size()).forEach(FileWriting::deleteQuietly);
                targets.subList(0, moved).forEach(FileWriting::deleteQuietly);
            }
        }
    }

    /** Greedy, in order: a shard is closed when the next tensor would take it past the limit. */
    private static List<List<PendingTensor>> split(List<PendingTensor> tensors, long maxShardBytes) {
        List<List<PendingTensor>> shards = new ArrayList<>();
        List<PendingTensor> current = new ArrayList<>();
        long bytes = 0;
        for (PendingTensor t : tensors) {
            if (!current.isEmpty() && t.byteCount() > maxShardBytes - bytes) {
                shards.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(t);
            bytes += t.byteCount();
        }
        shards.add(current);
        return shards;
    }
}
