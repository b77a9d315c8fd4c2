package dev.roofline.quant.checkpoint;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/** The JSON that tells serving stacks how a checkpoint is quantized, per {@link QuantTarget}. */
final class QuantizationConfigs {
    private QuantizationConfigs() {}

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** {@code hf_quant_config.json} as NVIDIA ModelOpt exports it (NVFP4 only). */
    static ObjectNode hfQuantConfig(List<String> excludedModules) {
        ObjectNode root = F.objectNode();
        root.putObject("producer").put("name", "roofline").put("version", "0.1.0");
        ObjectNode q = root.putObject("quantization");
        q.put("quant_algo", "NVFP4");
        q.putNull("kv_cache_quant_algo");
        q.put("group_size", 16);
        q.set("exclude_modules", array(excludedModules));
        return root;
    }

    /** The {@code quantization_config} section added to {@code config.json}. */
    static ObjectNode quantizationConfig(QuantTarget target, List<String> excludedModules) {
        ObjectNode c = F.objectNode();
        switch (target) {
            case NVFP4_MODELOPT -> {
                c.put("quant_method", "modelopt");
                c.put("quant_algo", "NVFP4");
                c.put("group_size", 16);
                c.putNull("kv_cache_quant_algo");
                c.set("exclude_modules", array(excludedModules));
            }
            case NVFP4_COMPRESSED_TENSORS ->
                compressedTensors(
                        c,
                        "nvfp4-pack-quantized",
                        weights(4, "tensor_group").put("group_size", 16),
                        null,
                        excludedModules);
            case FP8_PER_TENSOR -> {
                c.put("quant_method", "fp8");
                c.put("activation_scheme", "dynamic");
                c.set("ignored_layers", array(excludedModules));
            }
            case FP8_PER_CHANNEL ->
                compressedTensors(
                        c,
                        "float-quantized",
                        weights(8, "channel"),
                        F.objectNode()
                                .put("num_bits", 8)
                                .put("type", "float")
                                .put("strategy", "token")
                                .put("symmetric", true)
                                .put("dynamic", true),
                        excludedModules);
        }
        return c;
    }

    private static ObjectNode weights(int bits, String strategy) {
        return F.objectNode()
                .put("num_bits", bits)
                .put("type", "float")
                .put("strategy", strategy)
                .put("symmetric", true)
                .put("dynamic", false);
    }

    private static void compressedTensors(
            ObjectNode c, String format, ObjectNode weights, ObjectNode inputs, List<String> ignore) {
        c.put("quant_method", "compressed-tensors");
        c.put("format", format);
        ObjectNode group = c.putObject("config_groups").putObject("group_0");
        group.set("targets", array(List.of("Linear")));
        group.set("weights", weights);
        if (inputs == null) {
            group.putNull("input_activations");
        } else {
            group.set("input_activations", inputs);
        }
        c.set("ignore", array(ignore));
    }

    private static ArrayNode array(List<String> values) {
        ArrayNode a = F.arrayNode();
        values.forEach(a::add);
        return a;
    }
}
