package dev.roofline.core.model;

import java.util.Map;
import java.util.Objects;

/**
 * A {@code config.json} as {@link ConfigJson} read it: its {@code model_type} (one of
 * {@link ConfigJson#SUPPORTED_MODEL_TYPES}), its fields and the model they describe.
 *
 * @param modelType the supported {@code model_type}
 * @param fields    the top-level JSON object in file order: values are {@code Map} (objects), {@code List} (arrays),
 *                  {@code String}, {@code Long} (integers), {@code Double}, {@code Boolean} or {@code null}; kept to be
 *                  written back (e.g. with a quantization section)
 * @param model     the model built from the fields
 */
public record ModelConfig(String modelType, Map<String, Object> fields, Model model) {
    public ModelConfig {
        Objects.requireNonNull(modelType, "modelType");
        Objects.requireNonNull(fields, "fields");
        Objects.requireNonNull(model, "model");
    }
}
