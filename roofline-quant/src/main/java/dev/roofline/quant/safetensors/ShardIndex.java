package dev.roofline.quant.safetensors;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/** A parsed {@code model.safetensors.index.json}: tensor name → shard file name, and the declared total size. */
record ShardIndex(Map<String, String> weightMap, OptionalLong totalSize) {
    ShardIndex {
        weightMap = Collections.unmodifiableMap(new LinkedHashMap<>(weightMap));
    }

    static ShardIndex read(Path indexFile, long maxBytes) throws IOException {
        long size = Files.size(indexFile);
        if (size > maxBytes) {
            throw new SafetensorsFormatException(
                    FormatViolation.BAD_INDEX,
                    indexFile + ": index has " + size + " bytes, over the limit of " + maxBytes);
        }
        JsonNode root = Json.parse(Files.readAllBytes(indexFile), indexFile.toString());
        JsonNode map = root.get("weight_map");
        if (!root.isObject() || map == null || !map.isObject()) {
            throw new SafetensorsFormatException(
                    FormatViolation.BAD_INDEX,
                    indexFile + ": index must be an object with a 'weight_map' object, got " + Json.show(root));
        }
        Map<String, String> weightMap = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : map.properties()) {
            String shard = entry.getValue().isTextual() ? entry.getValue().textValue() : "";
            if (!isPlainFileName(shard)) {
                throw new SafetensorsFormatException(
                        FormatViolation.BAD_INDEX,
                        indexFile + ": weight_map['"
                                + entry.getKey() + "'] = " + Json.show(entry.getValue())
                                + " must name a file in the index's directory");
            }
            weightMap.put(entry.getKey(), shard);
        }
        JsonNode total = root.path("metadata").get("total_size");
        OptionalLong totalSize = Json.nonNegativeLong(total);
        if (total != null && totalSize.isEmpty()) {
            throw new SafetensorsFormatException(
                    FormatViolation.BAD_INDEX,
                    indexFile + ": metadata.total_size must be a non-negative integer, got " + Json.show(total));
        }
        return new ShardIndex(weightMap, totalSize);
    }

    /** A name that resolves inside the index's directory: no separators, not "." or "..". */
    private static boolean isPlainFileName(String name) {
        return !name.isEmpty()
                && !name.equals(".")
                && !name.equals("..")
                && name.chars().noneMatch(c -> c == '/' || c == '\\' || c == 0);
    }
}
