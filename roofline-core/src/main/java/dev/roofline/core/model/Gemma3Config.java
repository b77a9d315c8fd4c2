package dev.roofline.core.model;

import java.util.HashMap;
import java.util.Map;

/**
 * The language model's fields of a Gemma 3 {@code config.json}: {@code gemma3_text}'s own (Gemma-3-1B), or the
 * {@code text_config} inside a multimodal {@code gemma3} (4B, 12B, 27B; its vision encoder is not counted), each over
 * the defaults transformers' {@code Gemma3TextConfig} fills in for the keys a published file leaves out (Gemma-3-4B's
 * {@code text_config} gives no head counts, for one).
 */
final class Gemma3Config {
    private Gemma3Config() {}

    /** transformers' Gemma3TextConfig defaults for the keys that shape the arithmetic. */
    private static final Map<String, Object> DEFAULTS = Map.ofEntries(
            Map.entry("vocab_size", 262_208L),
            Map.entry("hidden_size", 2304L),
            Map.entry("intermediate_size", 9216L),
            Map.entry("num_hidden_layers", 26L),
            Map.entry("num_attention_heads", 8L),
            Map.entry("num_key_value_heads", 4L),
            Map.entry("head_dim", 256L),
            Map.entry("hidden_activation", "gelu_pytorch_tanh"),
            Map.entry("sliding_window", 4096L),
            Map.entry("max_position_embeddings", 131_072L),
            Map.entry("sliding_window_pattern", 6L),
            Map.entry("tie_word_embeddings", true));

    /**
     * The soft-capping the fields ask for: {@code attn_logit_softcapping} on the scores, {@code final_logit_softcapping}
     * on the logits, each a positive number or null/absent for none (Gemma 3's published files set neither).
     */
    static SoftCapping softCapping(Map<String, Object> f) {
        return new SoftCapping(cap(f, "attn_logit_softcapping"), cap(f, "final_logit_softcapping"));
    }

    private static double cap(Map<String, Object> f, String field) {
        Object v = f.get(field);
        if (v == null) {
            return 0;
        }
        if (!(v instanceof Number n) || !(n.doubleValue() > 0) || Double.isInfinite(n.doubleValue())) {
            throw new IllegalArgumentException(
                    "config.json \"" + field + "\" must be a positive number or null, got " + v);
        }
        return n.doubleValue();
    }

    /** The fields to read: the text model's over {@link #DEFAULTS}. */
    static Map<String, Object> textFields(String type, Map<String, Object> c) {
        Map<String, Object> text = c;
        if (type.equals("gemma3")) {
            if (!(c.get("text_config") instanceof Map<?, ?> t)) {
                throw new IllegalArgumentException(
                        "config.json of model_type \"gemma3\" needs \"text_config\" (the language model's fields)");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> nested = (Map<String, Object>) t;
            text = nested;
        }
        Map<String, Object> f = new HashMap<>(DEFAULTS);
        text.forEach((k, v) -> {
            if (v != null || !DEFAULTS.containsKey(k)) {
                f.put(k, v);
            }
        });
        // a multimodal file says at its top whether the head is tied
        if (type.equals("gemma3") && c.get("tie_word_embeddings") != null) {
            f.put("tie_word_embeddings", c.get("tie_word_embeddings"));
        }
        if (!"gelu_pytorch_tanh".equals(f.get("hidden_activation"))) {
            throw new IllegalArgumentException("config.json \"hidden_activation\" " + f.get("hidden_activation")
                    + " is not supported: Gemma 3's MLP is gated by gelu_pytorch_tanh");
        }
        return f;
    }
}
