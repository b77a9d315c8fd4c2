package dev.roofline.core.model;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads a Hugging Face {@code config.json} of a Llama-family (llama, mistral, qwen2), Mixtral or DeepSeek-V3 model.
 * Unknown keys are ignored; a missing or mistyped key that the arithmetic needs is an error naming it.
 *
 * <pre>{@code
 * Model m = ConfigJson.read(Path.of("Meta-Llama-3-8B/config.json"));
 * }</pre>
 */
public final class ConfigJson {
    private ConfigJson() {}

    public static Model read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read model config " + file + ": " + e.getMessage(), e);
        }
        String name = file.getParent() != null && file.getFileName().toString().equals("config.json")
                ? file.getParent().getFileName().toString() : file.getFileName().toString().replaceFirst("\\.json$", "");
        try {
            return parse(name, text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** A model named {@code name} from config.json text. */
    public static Model parse(String name, String json) {
        if (!(Json.parse(json) instanceof Map<?, ?> root)) {
            throw new IllegalArgumentException("config.json must be a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> c = (Map<String, Object>) root;
        String type = c.get("model_type") instanceof String s ? s : "";
        int hidden = integer(c, "hidden_size");
        int heads = integer(c, "num_attention_heads");
        Model.Builder b = Model.newBuilder(name).hiddenSize(hidden).layers(integer(c, "num_hidden_layers"))
                .vocabSize(integer(c, "vocab_size")).tiedEmbeddings(bool(c, "tie_word_embeddings", false));
        if (c.containsKey("kv_lora_rank")) {
            if (c.get("q_lora_rank") == null) {
                throw new IllegalArgumentException("q_lora_rank null (MLA without query compression) is not supported");
            }
            b.latentAttention(new LatentAttention(heads, integer(c, "q_lora_rank"), integer(c, "kv_lora_rank"),
                    integer(c, "qk_nope_head_dim"), integer(c, "qk_rope_head_dim"), integer(c, "v_head_dim")));
        } else {
            b.attention(heads, c.get("num_key_value_heads") == null ? heads : integer(c, "num_key_value_heads"));
            if (c.get("head_dim") != null) {
                b.headDim(integer(c, "head_dim"));
            }
            // Qwen2 hard-codes bias on q/k/v; Llama and Mistral expose it as attention_bias
            b.qkvBias(type.equals("qwen2") || bool(c, "attention_bias", false));
        }
        if (c.containsKey("n_routed_experts")) {
            int dense = c.get("first_k_dense_replace") == null ? 0 : integer(c, "first_k_dense_replace");
            b.mixtureOfExperts(new MixtureOfExperts(integer(c, "n_routed_experts"), integer(c, "num_experts_per_tok"),
                    integer(c, "moe_intermediate_size"), c.get("n_shared_experts") == null ? 0 : integer(c, "n_shared_experts"),
                    dense, dense > 0 ? integer(c, "intermediate_size") : 0, "noaux_tc".equals(c.get("topk_method"))));
        } else if (c.containsKey("num_local_experts")) {
            b.mixtureOfExperts(MixtureOfExperts.routed(integer(c, "num_local_experts"), integer(c, "num_experts_per_tok"),
                    integer(c, "intermediate_size")));
        } else {
            b.swiGlu(integer(c, "intermediate_size"));
        }
        return b.build();
    }

    private static int integer(Map<String, Object> c, String key) {
        Object v = c.get(key);
        if (v == null) {
            throw new IllegalArgumentException("config.json needs \"" + key + "\"" + (c.containsKey(key) ? " (it is null)" : ""));
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
