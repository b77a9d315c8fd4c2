package dev.roofline.core.model;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.internal.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.roofline.core.model.ConfigFields.bool;
import static dev.roofline.core.model.ConfigFields.integer;
import static dev.roofline.core.model.ConfigFields.nonNegative;
import static dev.roofline.core.model.ConfigFields.refuseTrue;

/**
 * Reads a Hugging Face {@code config.json} of a Llama-family (llama, mistral, qwen2, qwen3, phi3), Gemma 3
 * (gemma3_text, or gemma3's text_config), Mixtral, Qwen3-MoE, gpt-oss or DeepSeek-V3 model: the one reader of these
 * files (roofline-quant's checkpoint reader goes through it). {@code model_type} must be one of
 * {@link #SUPPORTED_MODEL_TYPES}: another architecture would be priced with the wrong arithmetic. A config is refused,
 * naming the field, when a size is missing, mistyped or not positive; when it carries a field of another architecture
 * (experts under a dense type, Mixtral's expert fields under DeepSeek's or the other way round, latent attention
 * outside deepseek_v3); when its fields disagree (KV heads above or not dividing the heads, a hidden size the heads do
 * not divide without {@code head_dim}, more experts per token than experts, no routed layer left, layer_types of
 * another length); when it asks for biases this reader does not count (Llama's {@code attention_bias} or
 * {@code mlp_bias} true), or sliding windows over layers not modelled yet (Qwen2's and Qwen3's
 * {@code use_sliding_window}, Phi-3-mini's window). Windows are read per type: every layer for Mistral, the layers
 * {@code layer_types} (or the type's pattern) names for Gemma 3 and gpt-oss; Gemma 3's soft-capping where a file sets
 * it ({@link SoftCapping}). An explicit {@code head_dim} is honoured
 * as transformers honours it, even where it differs from hidden / heads (Mistral-Nemo: 32 heads of 128 in 5120), and
 * Qwen3's defaults to 128 as transformers' does. Other keys are ignored.
 *
 * <pre>{@code
 * Model m = ConfigJson.read(Path.of("Meta-Llama-3-8B/config.json"));   // named "Meta-Llama-3-8B"
 * }</pre>
 */
public final class ConfigJson {
    /** The {@code model_type} values this reader maps to a {@link Model}. */
    public static final List<String> SUPPORTED_MODEL_TYPES = List.of(
            "llama",
            "mistral",
            "qwen2",
            "qwen3",
            "phi3",
            "gemma3",
            "gemma3_text",
            "mixtral",
            "qwen3_moe",
            "gpt_oss",
            "deepseek_v3");

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
        Checks.notNull("file", file);
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
        Checks.notNull("file", file);
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

    /** Fields only a mixture of experts has, by the name each architecture gives them. */
    private static final List<String> MOE_FIELDS = List.of(
            "num_local_experts",
            "n_routed_experts",
            "num_experts",
            "num_experts_per_tok",
            "moe_intermediate_size",
            "n_shared_experts",
            "shared_expert_intermediate_size",
            "first_k_dense_replace");

    /** Fields only DeepSeek's multi-head latent attention has. */
    private static final List<String> MLA_FIELDS =
            List.of("kv_lora_rank", "q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim");

    private static Model model(String name, String type, Map<String, Object> file) {
        Map<String, Object> c = type.startsWith("gemma3")
                ? Gemma3Config.textFields(type, file)
                : type.equals("qwen3") ? headDim128(file) : file;
        int hidden = integer(c, "hidden_size");
        int heads = integer(c, "num_attention_heads");
        int layers = integer(c, "num_hidden_layers");
        Model.Builder b = Model.newBuilder(name)
                .hiddenSize(hidden)
                .layers(layers)
                .vocabSize(integer(c, "vocab_size"))
                .tiedEmbeddings(bool(c, "tie_word_embeddings", false));
        if (c.get("max_position_embeddings") != null) {
            b.maxPositions(integer(c, "max_position_embeddings"));
        }
        switch (type) {
            case "llama", "mistral", "qwen2" -> {
                refuse(type, c, MOE_FIELDS, "a dense architecture: a mixture of experts needs its own model_type");
                refuse(type, c, MLA_FIELDS, "multi-head attention: latent attention is deepseek_v3's");
                if (type.equals("llama")) {
                    // transformers' Llama puts attention_bias on o_proj too and mlp_bias on the MLP; neither is counted
                    refuseTrue(c, "attention_bias");
                    refuseTrue(c, "mlp_bias");
                }
                // Qwen2 always has Q/K/V biases; Mistral has none whatever the file says (transformers reads no key)
                multiHeadAttention(b, c, hidden, heads, type.equals("qwen2"));
                b.swiGlu(integer(c, "intermediate_size"));
                if (type.equals("qwen2")) {
                    refuseSlidingWindow(type, c);
                }
                // Mistral's sliding_window (4096 in Mistral-7B-v0.1) holds in every layer; a window as long as the
                // positions is none
                if (type.equals("mistral") && c.get("sliding_window") != null) {
                    int window = integer(c, "sliding_window");
                    if (windowBelowPositions(c)) {
                        b.slidingWindow(window, layers);
                    }
                }
            }
            case "qwen3", "phi3" -> {
                refuse(type, c, MOE_FIELDS, "a dense architecture: a mixture of experts needs its own model_type");
                refuse(type, c, MLA_FIELDS, "multi-head attention: latent attention is deepseek_v3's");
                refuseTrue(c, "attention_bias");
                refuseSlidingWindow(type, c);
                // Qwen3 normalises every query and key head (q_norm, k_norm); Phi-3's fused qkv_proj and gate_up_proj
                // hold exactly the elements of separate q, k, v, gate and up matrices
                multiHeadAttention(b, c, hidden, heads, false);
                b.qkNorm(type.equals("qwen3"));
                b.swiGlu(integer(c, "intermediate_size"));
            }
            case "qwen3_moe" -> {
                refuse(
                        type,
                        c,
                        List.of("num_local_experts", "n_routed_experts", "n_shared_experts", "first_k_dense_replace"),
                        "Qwen3-MoE's experts are num_experts of moe_intermediate_size, no shared experts");
                refuse(type, c, MLA_FIELDS, "multi-head attention: latent attention is deepseek_v3's");
                refuseTrue(c, "attention_bias");
                refuseSlidingWindow(type, c);
                // transformers routes a layer when it is not in mlp_only_layers and (layer + 1) % decoder_sparse_step
                // == 0: every layer only with step 1 and no MLP-only layers, the published models' setting
                if (c.get("decoder_sparse_step") != null && !Long.valueOf(1).equals(c.get("decoder_sparse_step"))) {
                    throw new IllegalArgumentException("config.json \"decoder_sparse_step\" "
                            + c.get("decoder_sparse_step") + " is not supported: every layer must be routed (1)");
                }
                if (c.get("mlp_only_layers") instanceof List<?> l && !l.isEmpty()) {
                    throw new IllegalArgumentException("config.json \"mlp_only_layers\" " + l
                            + " is not supported: every layer must be routed ([])");
                }
                multiHeadAttention(b, c, hidden, heads, false);
                b.qkNorm(true);
                int experts = integer(c, "num_experts");
                b.mixtureOfExperts(
                        MixtureOfExperts.routed(experts, topK(c, experts), integer(c, "moe_intermediate_size")));
            }
            case "gemma3", "gemma3_text" -> {
                refuse(type, c, MOE_FIELDS, "a dense architecture: a mixture of experts needs its own model_type");
                refuseTrue(c, "attention_bias");
                // per layer: q/k norms, norms before and after attention and the MLP, a GELU-gated MLP; 5 of every 6
                // layers attend within sliding_window
                multiHeadAttention(b, c, hidden, heads, false);
                b.qkNorm(true).sandwichNorms(true).geGlu(integer(c, "intermediate_size"));
                b.softCapping(Gemma3Config.softCapping(c));
                slidingWindow(b, c, layers, 6);
            }
            case "gpt_oss" -> {
                refuse(
                        type,
                        c,
                        List.of("n_routed_experts", "num_experts", "n_shared_experts", "first_k_dense_replace"),
                        "gpt-oss's experts are num_local_experts of intermediate_size, every layer routed");
                refuse(type, c, MLA_FIELDS, "multi-head attention: latent attention is deepseek_v3's");
                // attention_bias puts biases on q, k, v and o; every layer has one sink logit per head; the router and
                // every expert's projections carry biases
                boolean bias = bool(c, "attention_bias", true);
                multiHeadAttention(b, c, hidden, heads, bias);
                b.outputBias(bias).attentionSinks(true);
                int experts = integer(c, "num_local_experts");
                b.mixtureOfExperts(
                        MixtureOfExperts.routedWithBiases(experts, topK(c, experts), integer(c, "intermediate_size")));
                slidingWindow(b, c, layers, 2);
            }
            case "mixtral" -> {
                refuse(
                        type,
                        c,
                        List.of("n_routed_experts", "num_experts", "n_shared_experts", "first_k_dense_replace"),
                        "Mixtral's experts are num_local_experts of intermediate_size, every layer routed");
                refuse(type, c, MLA_FIELDS, "multi-head attention: latent attention is deepseek_v3's");
                multiHeadAttention(b, c, hidden, heads, false);
                int experts = integer(c, "num_local_experts");
                b.mixtureOfExperts(MixtureOfExperts.routed(experts, topK(c, experts), integer(c, "intermediate_size")));
            }
            case "deepseek_v3" -> {
                refuse(
                        type,
                        c,
                        List.of("num_local_experts", "num_experts"),
                        "DeepSeek-V3's experts are n_routed_experts of moe_intermediate_size");
                refuseTrue(c, "attention_bias");
                latentAttention(b, c, heads);
                int experts = integer(c, "n_routed_experts");
                int dense = c.get("first_k_dense_replace") == null ? 0 : nonNegative(c, "first_k_dense_replace");
                // dense == layers is a dense model (transformers builds a dense MLP in every layer); more is an error
                if (dense > layers) {
                    throw new IllegalArgumentException("config.json \"first_k_dense_replace\" " + dense
                            + " is more than \"num_hidden_layers\" " + layers);
                }
                if (c.get("moe_layer_freq") != null && !Long.valueOf(1).equals(c.get("moe_layer_freq"))) {
                    throw new IllegalArgumentException("config.json \"moe_layer_freq\" " + c.get("moe_layer_freq")
                            + " is not supported: every layer after first_k_dense_replace must be routed (1)");
                }
                b.mixtureOfExperts(new MixtureOfExperts(
                        experts,
                        topK(c, experts),
                        integer(c, "moe_intermediate_size"),
                        c.get("n_shared_experts") == null ? 0 : nonNegative(c, "n_shared_experts"),
                        dense,
                        dense > 0 ? integer(c, "intermediate_size") : 0,
                        "noaux_tc".equals(c.get("topk_method"))));
            }
            default -> throw new IllegalStateException("model_type " + type + " passed modelType() unmapped");
        }
        return b.build();
    }

    /**
     * Query and KV heads and the head width: {@code head_dim} when given (transformers' Llama, Mistral, Qwen2 and
     * Mixtral all honour it, e.g. Mistral-Nemo's 32 heads of 128 in a hidden size of 5120), otherwise
     * {@code hidden_size / num_attention_heads}, which must then be whole.
     */
    private static void multiHeadAttention(
            Model.Builder b, Map<String, Object> c, int hidden, int heads, boolean qkvBias) {
        int kvHeads = c.get("num_key_value_heads") == null ? heads : integer(c, "num_key_value_heads");
        if (kvHeads > heads) {
            throw new IllegalArgumentException("config.json \"num_key_value_heads\" " + kvHeads
                    + " is more than \"num_attention_heads\" " + heads);
        }
        if (heads % kvHeads != 0) {
            throw new IllegalArgumentException("config.json \"num_attention_heads\" " + heads
                    + " is not a multiple of \"num_key_value_heads\" " + kvHeads);
        }
        b.attention(heads, kvHeads);
        if (c.get("head_dim") != null) {
            b.headDim(integer(c, "head_dim"));
        } else if (hidden % heads != 0) {
            throw new IllegalArgumentException("config.json \"hidden_size\" " + hidden + " is not a multiple of"
                    + " \"num_attention_heads\" " + heads + ", and there is no \"head_dim\"");
        }
        b.qkvBias(qkvBias);
    }

    private static void latentAttention(Model.Builder b, Map<String, Object> c, int heads) {
        if (c.containsKey("q_lora_rank") && c.get("q_lora_rank") == null) {
            throw new IllegalArgumentException(
                    "config.json \"q_lora_rank\" null (MLA without query compression) is not supported");
        }
        b.latentAttention(new LatentAttention(
                heads,
                integer(c, "q_lora_rank"),
                integer(c, "kv_lora_rank"),
                integer(c, "qk_nope_head_dim"),
                integer(c, "qk_rope_head_dim"),
                integer(c, "v_head_dim")));
    }

    /** {@code num_experts_per_tok}, at most {@code experts}. */
    private static int topK(Map<String, Object> c, int experts) {
        int topK = integer(c, "num_experts_per_tok");
        if (topK > experts) {
            throw new IllegalArgumentException("config.json \"num_experts_per_tok\" " + topK + " is more than the "
                    + experts + " experts ("
                    + (c.containsKey("n_routed_experts")
                            ? "\"n_routed_experts\""
                            : c.containsKey("num_experts") ? "\"num_experts\"" : "\"num_local_experts\"")
                    + ")");
        }
        return topK;
    }

    /** Refuses the first of {@code fields} that {@code c} sets (not null): it belongs to another architecture. */
    private static void refuse(String type, Map<String, Object> c, List<String> fields, String why) {
        for (String f : fields) {
            if (c.get(f) != null) {
                throw new IllegalArgumentException("config.json field \"" + f + "\" does not fit model_type \"" + type
                        + "\" (" + why + "); supported: " + supported());
            }
        }
    }

    /** transformers' Qwen3Config defaults {@code head_dim} to 128, whatever hidden / heads is. */
    private static Map<String, Object> headDim128(Map<String, Object> c) {
        if (c.get("head_dim") != null) {
            return c;
        }
        Map<String, Object> f = new HashMap<>(c);
        f.put("head_dim", 128L);
        return f;
    }

    /**
     * The layers that attend within {@code sliding_window}: those {@code layer_types} names
     * {@code "sliding_attention"} (every entry one of it or {@code "full_attention"}, one per layer), or without it
     * transformers' default for the type: layer i slides unless {@code (i + 1) % pattern == 0}, {@code pattern} being
     * {@code sliding_window_pattern} when given, else {@code defaultPattern}.
     */
    private static void slidingWindow(Model.Builder b, Map<String, Object> c, int layers, int defaultPattern) {
        int window = integer(c, "sliding_window");
        int sliding;
        if (c.get("layer_types") != null) {
            if (!(c.get("layer_types") instanceof List<?> types) || types.size() != layers) {
                throw new IllegalArgumentException("config.json \"layer_types\" must list one type per layer (" + layers
                        + "), got " + c.get("layer_types"));
            }
            sliding = 0;
            for (Object t : types) {
                if ("sliding_attention".equals(t)) {
                    sliding++;
                } else if (!"full_attention".equals(t)) {
                    throw new IllegalArgumentException("config.json \"layer_types\" entry " + t
                            + " is not \"sliding_attention\" or \"full_attention\"");
                }
            }
        } else {
            int pattern =
                    c.get("sliding_window_pattern") == null ? defaultPattern : integer(c, "sliding_window_pattern");
            sliding = layers - layers / pattern;
        }
        if (sliding > 0) {
            b.slidingWindow(window, sliding);
        }
    }

    /**
     * Refuses sliding-window attention where the layers it covers are not modelled yet: Qwen2's and Qwen3's
     * {@code use_sliding_window: true} (windows from {@code max_window_layers} on), or Phi-3's {@code sliding_window}
     * set below its {@code max_position_embeddings}.
     */
    private static void refuseSlidingWindow(String type, Map<String, Object> c) {
        if (type.equals("phi3") ? windowBelowPositions(c) : bool(c, "use_sliding_window", false)) {
            throw new IllegalArgumentException("config.json \"sliding_window\" " + c.get("sliding_window")
                    + ": sliding-window attention is not supported yet (it changes the KV cache and the keys each query"
                    + " reads)");
        }
    }

    /**
     * Whether {@code sliding_window} is set and shorter than {@code max_position_embeddings}: a window as long as the
     * positions is none.
     */
    private static boolean windowBelowPositions(Map<String, Object> c) {
        return c.get("sliding_window") != null
                && (!(c.get("max_position_embeddings") instanceof Long max)
                        || !(c.get("sliding_window") instanceof Long w)
                        || w < max);
    }
}
