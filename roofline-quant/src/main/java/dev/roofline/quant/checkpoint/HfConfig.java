package dev.roofline.quant.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roofline.core.model.ConfigJson;
import dev.roofline.core.model.Model;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A Hugging Face {@code config.json}: its raw JSON (kept to be written back with a quantization section) and the
 * core's {@link Model} built from it. Supported model types: llama, mistral, qwen2, mixtral, deepseek_v3.
 */
public record HfConfig(Path file, String modelType, ObjectNode json, Model model) {

    public static final List<String> SUPPORTED_MODEL_TYPES = List.of("llama", "mistral", "qwen2", "mixtral", "deepseek_v3");

    static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * Reads and maps {@code config.json}.
     *
     * @throws IllegalArgumentException naming the file when the JSON is invalid, has no or an unsupported
     *                                  {@code model_type}, or lacks a field the model needs
     */
    public static HfConfig read(Path file) throws IOException {
        String text = Files.readString(file);
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + " is not valid JSON: " + e.getMessage(), e);
        }
        if (!(root instanceof ObjectNode obj)) {
            throw new IllegalArgumentException(file + " must hold a JSON object");
        }
        JsonNode type = obj.get("model_type");
        if (type == null || !type.isTextual()) {
            throw new IllegalArgumentException(file + " has no \"model_type\"; supported: " + SUPPORTED_MODEL_TYPES);
        }
        if (!SUPPORTED_MODEL_TYPES.contains(type.asText())) {
            throw new IllegalArgumentException(file + ": model_type \"" + type.asText() + "\" is not supported; supported: "
                    + SUPPORTED_MODEL_TYPES);
        }
        String name = file.toAbsolutePath().getParent() == null ? "model" : file.toAbsolutePath().getParent().getFileName().toString();
        Model model;
        try {
            model = ConfigJson.parse(name, text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
        return new HfConfig(file, type.asText(), obj, model);
    }
}
