package dev.roofline.core.model;

import dev.roofline.core.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded mutations of published {@code config.json} texts: every one must either be refused with an
 * {@link IllegalArgumentException} or give the parameter count that an independent formula (below, from the
 * transformers module definitions of each architecture) gives for the same fields. {@code -Dfuzz.configs=N} runs more.
 */
class ConfigJsonFuzzTest {
    private static final int CASES = Integer.getInteger("fuzz.configs", 10_000);

    private static final List<String> SEEDS =
            List.of(ConfigJsonTest.LLAMA_3_8B, ConfigJsonTest.MIXTRAL, ConfigJsonTest.DEEPSEEK_V3, """
            {"model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944, "num_attention_heads": 28,
             "num_hidden_layers": 28, "num_key_value_heads": 4, "tie_word_embeddings": false, "vocab_size": 152064}
            """, """
            {"model_type": "mistral", "hidden_size": 5120, "head_dim": 128, "intermediate_size": 14336,
             "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 40, "vocab_size": 131072}
            """);

    private static final List<String> KEYS = List.of(
            "model_type",
            "hidden_size",
            "intermediate_size",
            "num_attention_heads",
            "num_key_value_heads",
            "num_hidden_layers",
            "vocab_size",
            "head_dim",
            "tie_word_embeddings",
            "attention_bias",
            "mlp_bias",
            "num_local_experts",
            "num_experts",
            "n_routed_experts",
            "num_experts_per_tok",
            "moe_intermediate_size",
            "n_shared_experts",
            "first_k_dense_replace",
            "moe_layer_freq",
            "q_lora_rank",
            "kv_lora_rank",
            "qk_nope_head_dim",
            "qk_rope_head_dim",
            "v_head_dim",
            "topk_method");

    private static final List<Object> VALUES = List.of(
            0L,
            -1L,
            1L,
            2L,
            3L,
            5L,
            8L,
            16L,
            61L,
            64L,
            128L,
            256L,
            4096L,
            4100L,
            14336L,
            (long) Integer.MAX_VALUE,
            1L << 31,
            1L << 40,
            1.5,
            4096.0,
            "4096",
            "",
            true,
            false,
            List.of(),
            Map.of(),
            "llama",
            "mistral",
            "qwen2",
            "mixtral",
            "deepseek_v3",
            "qwen2_moe",
            "bert",
            "noaux_tc");

    @Test
    @Timeout(60)
    void mutatedConfigsAreRefusedOrCountedRight() {
        Random random = new Random(14);
        int accepted = 0;
        for (int i = 0; i < CASES; i++) {
            String json = mutate(SEEDS.get(random.nextInt(SEEDS.size())), random);
            Model m;
            try {
                m = ConfigJson.parse("fuzz", json);
            } catch (IllegalArgumentException refused) {
                assertThat(refused.getMessage()).as(json).isNotBlank();
                continue;
            } catch (RuntimeException | StackOverflowError e) {
                throw new AssertionError("case " + i + " threw " + e + " for " + json, e);
            }
            accepted++;
            @SuppressWarnings("unchecked")
            BigInteger expected = expectedParameters((Map<String, Object>) Json.parse(json));
            try {
                assertThat(BigInteger.valueOf(m.parameterCount())).as(json).isEqualTo(expected);
            } catch (IllegalArgumentException tooBig) {
                assertThat(expected.bitLength()).as(json).isGreaterThan(63);
            }
        }
        // the mutations must leave enough configs readable for the count check to mean something
        assertThat(accepted).isGreaterThan(CASES / 20);
    }

    /** One to three mutations: a field set, removed or added, or the text itself damaged. */
    private static String mutate(String seed, Random random) {
        Map<String, Object> fields = new LinkedHashMap<>(asMap(Json.parse(seed)));
        int n = 1 + random.nextInt(3);
        for (int j = 0; j < n; j++) {
            switch (random.nextInt(4)) {
                case 0 -> {
                    String key = pick(KEYS, random);
                    fields.put(key, random.nextBoolean() ? pick(VALUES, random) : plausible(key, random));
                }
                case 1 -> fields.remove(pick(new ArrayList<>(fields.keySet()), random));
                case 2 -> fields.put(pick(KEYS, random), null);
                default -> {
                    String key = pick(new ArrayList<>(fields.keySet()), random);
                    if (fields.get(key) instanceof Long v) { // near the published value: off by one, halved, doubled
                        fields.put(
                                key,
                                switch (random.nextInt(3)) {
                                    case 0 -> v + 1;
                                    case 1 -> v / 2;
                                    default -> v * 2;
                                });
                    }
                }
            }
        }
        String text = write(fields);
        return switch (random.nextInt(10)) {
            case 0 -> damage(text, random);
            case 1 -> "[".repeat(1 + random.nextInt(6000)) + text;
            default -> text;
        };
    }

    /** A value of the kind the key takes, so that more mutants are read and their counts checked. */
    private static Object plausible(String key, Random random) {
        return switch (key) {
            case "model_type" -> pick(List.of("llama", "mistral", "qwen2", "mixtral", "deepseek_v3"), random);
            case "tie_word_embeddings", "attention_bias", "mlp_bias" -> random.nextBoolean();
            case "topk_method" -> pick(List.of("noaux_tc", "greedy"), random);
            default -> (long) pick(List.of(1, 2, 3, 4, 8, 16, 32, 64, 128, 160, 512, 1024, 4096), random);
        };
    }

    private static String damage(String text, Random random) {
        int at = random.nextInt(text.length());
        String junk = pick(List.of("", "\\u+041", "\\u00", "}", "{", "\"", ",", "0", "-", "e9", "\u0000"), random);
        return text.substring(0, at) + junk + text.substring(Math.min(text.length(), at + random.nextInt(3)));
    }

    /**
     * Parameters as transformers builds the model: every nn.Linear weight and bias, every RMSNorm weight, and
     * DeepSeek-V3's e_score_correction_bias (a buffer there, a tensor of the checkpoint; {@link Model#parameterCount}
     * counts it).
     */
    static BigInteger expectedParameters(Map<String, Object> c) {
        String type = (String) c.get("model_type");
        long h = num(c, "hidden_size", 0);
        long layers = num(c, "num_hidden_layers", 0);
        long heads = num(c, "num_attention_heads", 0);
        long vocab = num(c, "vocab_size", 0);
        boolean tied = Boolean.TRUE.equals(c.get("tie_word_embeddings"));
        BigInteger perLayer = big(2 * h); // input and post-attention RMSNorm
        BigInteger extra = BigInteger.ZERO; // layers that differ (DeepSeek's dense ones)
        if (type.equals("deepseek_v3")) {
            long qr = num(c, "q_lora_rank", 0);
            long kvr = num(c, "kv_lora_rank", 0);
            long nope = num(c, "qk_nope_head_dim", 0);
            long rope = num(c, "qk_rope_head_dim", 0);
            long v = num(c, "v_head_dim", 0);
            perLayer = perLayer.add(mul(h, qr)).add(big(qr)).add(mul(qr, heads, nope + rope));
            perLayer = perLayer.add(mul(h, kvr + rope)).add(big(kvr)).add(mul(kvr, heads, nope + v));
            perLayer = perLayer.add(mul(heads, v, h));
            if (Boolean.TRUE.equals(c.get("attention_bias"))) { // q_a_proj, kv_a_proj_with_mqa and o_proj biases
                perLayer = perLayer.add(big(qr + kvr + rope + h));
            }
            long experts = num(c, "n_routed_experts", 0);
            long mi = num(c, "moe_intermediate_size", 0);
            long shared = num(c, "n_shared_experts", 0);
            long dense = num(c, "first_k_dense_replace", 0);
            BigInteger moe = mul(experts, 3, h, mi).add(mul(3, h, shared, mi)).add(mul(experts, h));
            if ("noaux_tc".equals(c.get("topk_method"))) {
                moe = moe.add(big(experts));
            }
            BigInteger denseMlp = dense == 0 ? BigInteger.ZERO : mul(3, h, num(c, "intermediate_size", 0));
            extra = denseMlp.multiply(big(dense)).add(moe.multiply(big(layers - dense)));
        } else {
            long kv = num(c, "num_key_value_heads", heads);
            long hd = num(c, "head_dim", h / heads);
            long inter = num(c, "intermediate_size", 0);
            perLayer = perLayer.add(mul(2, h, heads, hd)).add(mul(2, h, kv, hd));
            boolean attentionBias = Boolean.TRUE.equals(c.get("attention_bias"));
            if (type.equals("qwen2")) {
                perLayer = perLayer.add(big((heads + 2 * kv) * hd));
            } else if (type.equals("llama") && attentionBias) {
                perLayer = perLayer.add(big((heads + 2 * kv) * hd + h));
            }
            if (type.equals("llama") && Boolean.TRUE.equals(c.get("mlp_bias"))) {
                perLayer = perLayer.add(big(2 * inter + h));
            }
            if (type.equals("mixtral")) {
                long experts = num(c, "num_local_experts", 0);
                perLayer = perLayer.add(mul(experts, 3, h, inter)).add(mul(experts, h));
            } else {
                perLayer = perLayer.add(mul(3, h, inter));
            }
        }
        return perLayer.multiply(big(layers))
                .add(extra)
                .add(mul(tied ? 1 : 2, vocab, h))
                .add(big(h));
    }

    private static long num(Map<String, Object> c, String key, long absent) {
        return c.get(key) instanceof Long l ? l : absent;
    }

    private static BigInteger big(long v) {
        return BigInteger.valueOf(v);
    }

    private static BigInteger mul(long... factors) {
        BigInteger r = BigInteger.ONE;
        for (long f : factors) {
            r = r.multiply(big(f));
        }
        return r;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        return (Map<String, Object>) o;
    }

    private static <T> T pick(List<T> from, Random random) {
        return from.get(random.nextInt(from.size()));
    }

    /** JSON text of the values {@link Json} reads. */
    private static String write(Object v) {
        return switch (v) {
            case null -> "null";
            case String s -> '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
            case Map<?, ?> m -> {
                StringBuilder sb = new StringBuilder("{");
                new TreeMap<>(m).forEach((k, x) -> sb.append(sb.length() > 1 ? ", " : "")
                        .append(write(k))
                        .append(": ")
                        .append(write(x)));
                yield sb.append('}').toString();
            }
            case List<?> l -> {
                List<String> parts = new ArrayList<>();
                l.forEach(x -> parts.add(write(x)));
                yield "[" + String.join(", ", parts) + "]";
            }
            default -> String.valueOf(v);
        };
    }

    @Test
    void theOracleAgreesWithThePublishedCounts() {
        assertThat(expectedParameters(asMap(Json.parse(ConfigJsonTest.LLAMA_3_8B))))
                .isEqualTo(big(8_030_261_248L));
        assertThat(expectedParameters(asMap(Json.parse(ConfigJsonTest.MIXTRAL))))
                .isEqualTo(big(46_702_792_704L));
        assertThat(expectedParameters(asMap(Json.parse(ConfigJsonTest.DEEPSEEK_V3))))
                .isEqualTo(big(671_026_419_200L));
        assertThat(expectedParameters(asMap(Json.parse(SEEDS.get(3))))).isEqualTo(big(7_615_616_512L));
        assertThat(expectedParameters(asMap(Json.parse(SEEDS.get(4))))).isEqualTo(big(12_247_782_400L));
    }
}
