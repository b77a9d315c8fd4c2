package dev.roofline.core.model;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Models built from their public Hugging Face {@code config.json} (the repository named on each constant). Only the
 * fields that shape the arithmetic are taken: hidden_size, num_hidden_layers, num_attention_heads,
 * num_key_value_heads, head_dim, intermediate_size, vocab_size, tie_word_embeddings and the MoE/MLA fields.
 */
public final class Models {
    private Models() {}

    /** meta-llama/Llama-2-7b-hf. */
    public static final Model LLAMA_2_7B = dense("Llama-2-7B", 4096, 32, 32, 32, 11008, 32000);
    /** meta-llama/Llama-2-70b-hf. */
    public static final Model LLAMA_2_70B = dense("Llama-2-70B", 8192, 80, 64, 8, 28672, 32000);
    /** meta-llama/Meta-Llama-3-8B. */
    public static final Model LLAMA_3_8B = dense("Llama-3-8B", 4096, 32, 32, 8, 14336, 128256);
    /** meta-llama/Meta-Llama-3-70B. */
    public static final Model LLAMA_3_70B = dense("Llama-3-70B", 8192, 80, 64, 8, 28672, 128256);
    /** mistralai/Mistral-7B-v0.1. */
    public static final Model MISTRAL_7B = dense("Mistral-7B", 4096, 32, 32, 8, 14336, 32000);
    /** Qwen/Qwen2.5-7B: biases on Q, K and V; untied embeddings. */
    public static final Model QWEN2_5_7B = Model.newBuilder("Qwen2.5-7B")
            .hiddenSize(3584)
            .layers(28)
            .vocabSize(152064)
            .attention(28, 4)
            .qkvBias(true)
            .swiGlu(18944)
            .build();
    /** mistralai/Mixtral-8x7B-v0.1: 8 experts, top 2. */
    public static final Model MIXTRAL_8X7B = Model.newBuilder("Mixtral-8x7B")
            .hiddenSize(4096)
            .layers(32)
            .vocabSize(32000)
            .attention(32, 8)
            .mixtureOfExperts(MixtureOfExperts.routed(8, 2, 14336))
            .build();
    /**
     * deepseek-ai/DeepSeek-V3 (DeepSeek-R1 has the same shape): MLA, 256 routed experts top 8, 1 shared, first 3
     * layers dense. The main model only: the multi-token-prediction module in the checkpoint is not counted.
     */
    public static final Model DEEPSEEK_V3 = Model.newBuilder("DeepSeek-V3")
            .hiddenSize(7168)
            .layers(61)
            .vocabSize(129280)
            .latentAttention(new LatentAttention(128, 1536, 512, 128, 64, 128))
            .mixtureOfExperts(new MixtureOfExperts(256, 8, 2048, 1, 3, 18432, true))
            .build();

    private static final List<Model> PRESETS = List.of(
            LLAMA_2_7B, LLAMA_2_70B, LLAMA_3_8B, LLAMA_3_70B, MISTRAL_7B, QWEN2_5_7B, MIXTRAL_8X7B, DEEPSEEK_V3);

    private static Model dense(
            String name, int hidden, int layers, int heads, int kvHeads, int intermediate, int vocab) {
        return Model.newBuilder(name)
                .hiddenSize(hidden)
                .layers(layers)
                .vocabSize(vocab)
                .attention(heads, kvHeads)
                .swiGlu(intermediate)
                .build();
    }

    public static List<Model> presets() {
        return PRESETS;
    }

    /** A preset by name, ignoring case, '-', '_', '.' and spaces ("llama3-8b", "Qwen2.5-7B", "deepseek-r1"). */
    public static Model byName(String name) {
        if (name == null) {
            throw new IllegalArgumentException("model must not be null; known: " + knownNames());
        }
        String key = normalize(name);
        if (key.equals("deepseekr1")) {
            return DEEPSEEK_V3;
        }
        for (Model m : PRESETS) {
            String n = normalize(m.name());
            if (n.equals(key) || n.replace("meta", "").equals(key)) {
                return m;
            }
        }
        throw new IllegalArgumentException(
                "unknown model '" + name + "'; known: " + knownNames() + ", or a config.json path");
    }

    public static String knownNames() {
        return PRESETS.stream().map(Model::name).collect(Collectors.joining(", "));
    }

    private static String normalize(String s) {
        return s.strip().toLowerCase(Locale.ROOT).replaceAll("[-_.\\s]", "");
    }
}
