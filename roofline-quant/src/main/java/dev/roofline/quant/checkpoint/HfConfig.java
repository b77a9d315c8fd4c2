package dev.roofline.quant.checkpoint;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roofline.core.model.ConfigJson;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.ModelConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A Hugging Face {@code config.json} as roofline-core's {@link ConfigJson} reads and validates it (supported model
 * types: {@link ConfigJson#SUPPORTED_MODEL_TYPES}; the model named by {@link ConfigJson#modelName}), with its fields as
 * a JSON tree to be written back with a quantization section.
 */
public record HfConfig(Path file, String modelType, ObjectNode json, Model model) {

    static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * Reads and maps {@code config.json} through {@link ConfigJson#readConfig}.
     *
     * @throws IllegalArgumentException naming the file when the JSON is invalid, has no or an unsupported
     *                                  {@code model_type}, or lacks a field the model needs
     */
    public static HfConfig read(Path file) throws IOException {
        ModelConfig config;
        try {
            config = ConfigJson.readConfig(file);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return new HfConfig(file, config.modelType(), MAPPER.valueToTree(config.fields()), config.model());
    }
}
