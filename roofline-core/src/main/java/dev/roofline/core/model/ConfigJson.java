package dev.roofline.core.model;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Reads a Hugging Face {@code config.json} of a Llama-family (llama, mistral, qwen2), Mixtral or DeepSeek-V3 model:
 * the one reader of these files (roofline-quant's checkpoint reader goes through it). {@code model_type} must be one
 * of {@link #SUPPORTED_MODEL_TYPES}: another architecture would be priced with the wrong arithmetic. Unknown keys are
 * ignored; a missing or mistyped key that the arithmetic needs is an error naming it.
 *
 * <pre>{@code
 * Model m = ConfigJson.read(Path.of("Meta-Llama-3-8B/config.json"));   // named "Meta-Llama-3-8B"
 * }</pre>
 */
public final class ConfigJson {
    /** The {@code model_type} values this reader maps to a {@link Model}. */
    public static final List<String> SUPPORTED_MODEL_TYPES =
            List.of("llama", "mistral", "qwen2", "mixtral", "deepseek_v3");

    private ConfigJson() {}

    /**
     * The model of the config file {@code file}, named by {@link #modelName}.
     *
     * @throws IllegalArgumentException naming the file and the field when the config is invalid or unsupported
     * @throws UncheckedIOException     when the file cannot be read
     */
    public static Model read(Path file) {
        return readConfig(file).model();
    }

    /** As {@link #read}, keeping the file's {@code model_type} and fields beside the model. */
    public static ModelConfig readConfig(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read model config " + file + ": " + e.getMessage(), e);
        }
        try {
            return parseConfig(modelName(file), text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The name a config file gives its model: the folder's name for {@code <folder>/config.json} (as a Hugging Face
     * checkpoint is laid out), otherwise the file's name without {@code .json}.
     */
    public static String modelName(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        Path folder = absolute.getParent() == null ? null : absolute.getParent().getFileName();
        String fileName = absolute.getFileName() == null
                ? "model"
                : absolute.getFileName().toString();
        return fileName.equals("config.json") && folder != null
                ? folder.toString()
                : fileName.replaceFirst("\\.json$", "");
    }

    /** A model named {@code name} from config.json text. */
    public static Model parse(String name, String json) {
        return parseConfig(name, json).model();
    }

    /** As {@link #parse}, keeping the text's {@code model_type} and fields beside the model. */
    public static ModelConfig parseConfig(String name, String json) {
        Object root;
        try {
            root = Json.parse(json);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("config.json is not valid JSON: " + e.getMessage(), e);
        }
        if (!(root instanceof Map<?, ?> object)) {
            throw new IllegalArgumentException(
                    "config.json must be a JSON object: the file must hold a JSON object at the" + " top level, got "
                            + (root instanceof List<?> ? "an array" : String.valueOf(root)));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> c = (Map<String, Object>) object;
        String type = modelType(c);
        return new ModelConfig(type, Collections.unmodifiableMap(c), model(name, type, c));
    }

    private static String modelType(Map<String, Object> c) {
        Object type = c.get("model_type");
        if (type == null) {
            throw new IllegalArgumentException("config.json has no \"model_type\"; supported: " + supported());
        }
        if (!(type instanceof String s)) {
            throw new IllegalArgumentException(
                    "config.json field model_type must be a string, got " + type + "; supported: " + supported());
        }
        if (!SUPPORTED_MODEL_TYPES.contains(s)) {
            throw new IllegalArgumentException(
                    "config.json field model_type \"" + s + "\" is not supported; supported: " + supported());
        }
        return s;
    }

    private static String supported() {
        return String.join(", ", SUPPORTED_MODEL_TYPES);
    }

    private static Model model(String name, String type, Map<String, Object> c) {
        int hidden = integer(c, "hidden_size");
        int heads = integer(c, "num_attention_heads");
        Model.Builder b = Model.newBuilder(name)
                .hiddenSize(hidden)
                .layers(integer(c, "num_hidden_layers"))
                .vocabSize(integer(c, "vocab_size"))
                .tiedEmbeddings(bool(c, "tie_word_embeddings", false));
        if (c.containsKey("kv_lora_rank")) {
            if (c.get("q_lora_rank") == null) {
                throw new IllegalArgumentException("q_lora_rank null (MLA without query compression) is not supported");
            }
            b.latentAttention(new LatentAttention(
                    heads,
                    integer(c, "q_lora_rank"),
                    integer(c, "kv_lora_rank"),
                    integer(c, "qk_nope_head_dim"),
                    integer(c, "qk_rope_head_dim"),
                    integer(c, "v_head_dim")));
        } else {
            b.attention(heads, c.get("num_key_value_heads") == null ? heads : integer(c, "num_key_value_heads"));
            if (c.get("head_dim") != null) {
                b.headDim(integer(c, "head_dim"));
            } else if (hidden % heads != 0) {
                // without head_dim the head width is hidden_size / num_attention_heads, which must be whole
                throw new IllegalArgumentException("config.json \"hidden_size\" " + hidden + " is not a multiple of"
                        + " \"num_attention_heads\" " + heads + ", and there is no \"head_dim\"");
            }
            // Qwen2 hard-codes bias on q/k/v; Llama and Mistral expose it as attention_bias
            b.qkvBias(type.equals("qwen2") || bool(c, "attention_bias", false));
        }
        if (c.containsKey("n_routed_experts")) {
            int dense = c.get("first_k_dense_replace") == null ? 0 : integer(c, "first_k_dense_replace");
            b.mixtureOfExperts(new MixtureOfExperts(
                    integer(c, "n_routed_experts"),
                    integer(c, "num_experts_per_tok"),
                    integer(c, "moe_intermediate_size"),
                    c.get("n_shared_experts") == null ? 0 : integer(c, "n_shared_experts"),
                    dense,
                    dense > 0 ? integer(c, "intermediate_size") : 0,
                    "noaux_tc".equals(c.get("topk_method"))));
        } else if (c.containsKey("num_local_experts")) {
            b.mixtureOfExperts(MixtureOfExperts.routed(
                    integer(c, "num_local_experts"),
                    integer(c, "num_experts_per_tok"),
                    integer(c, "intermediate_size")));
        } else {
            b.swiGlu(integer(c, "intermediate_size"));
        }
        return b.build();
    }

    private static int integer(Map<String, Object> c, String key) {
        Object v = c.get(key);
        if (v == null) {
            throw new IllegalArgumentException(
                    "config.json needs \"" + key + "\"" + (c.containsKey(key) ? " (it is null)" : ""));
        }
        if (!(v instanceof Long l) || l <= 0 || l > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("config.json \"" + key + "\" must be a positive integer, got " + v);
        }
        return l.intValue();
    }

    private static boolean bool(Map<String, Object> c, String key, boolean absent) {
        Object v = c.get(key);
        if (v == null) {
            return absent;
        }
        if (!(v instanceof Boolean b)) {
            throw new IllegalArgumentException("config.json \"" + key + "\" must be true or false, got " + v);
        }
        return b;
    }
}
