package dev.roofline.core.model;

import dev.roofline.core.precision.Precision;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Models built from their public Hugging Face {@code config.json} (the repository named on each constant). Only the
 * fields that shape the arithmetic are taken: hidden_size, num_hidden_layers, num_attention_heads,
 * num_key_value_heads, head_dim, intermediate_size, vocab_size, tie_word_embeddings, sliding_window and the layers it
 * covers, max_position_embeddings, and the MoE/MLA fields.
 */
public final class Models {
    private Models() {}

    /** meta-llama/Llama-2-7b-hf. */
    public static final Model LLAMA_2_7B =
            dense("Llama-2-7B", 4096, 32, 32, 32, 11008, 32000).withMaxPositions(4096);
    /** meta-llama/Llama-2-70b-hf. */
    public static final Model LLAMA_2_70B =
            dense("Llama-2-70B", 8192, 80, 64, 8, 28672, 32000).withMaxPositions(4096);
    /** meta-llama/Meta-Llama-3-8B. */
    public static final Model LLAMA_3_8B =
            dense("Llama-3-8B", 4096, 32, 32, 8, 14336, 128256).withMaxPositions(8192);
    /** meta-llama/Meta-Llama-3-70B. */
    public static final Model LLAMA_3_70B =
            dense("Llama-3-70B", 8192, 80, 64, 8, 28672, 128256).withMaxPositions(8192);
    /** mistralai/Mistral-7B-v0.1: every layer attends to the last 4096 tokens. */
    public static final Model MISTRAL_7B = layers("Mistral-7B", 4096, 32, 32, 8, 128, 32000, false)
            .swiGlu(14336)
            .slidingWindow(4096, 32)
            .maxPositions(32768)
            .build();
    /** Qwen/Qwen2.5-7B: biases on Q, K and V; untied embeddings. */
    public static final Model QWEN2_5_7B = Model.newBuilder("Qwen2.5-7B")
            .hiddenSize(3584)
            .layers(28)
            .vocabSize(152064)
            .attention(28, 4)
            .qkvBias(true)
            .swiGlu(18944)
            .maxPositions(131072)
            .build();
    /** mistralai/Mixtral-8x7B-v0.1: 8 experts, top 2. */
    public static final Model MIXTRAL_8X7B = Model.newBuilder("Mixtral-8x7B")
            .hiddenSize(4096)
            .layers(32)
            .vocabSize(32000)
            .attention(32, 8)
            .mixtureOfExperts(MixtureOfExperts.routed(8, 2, 14336))
            .maxPositions(32768)
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
            .maxPositions(163840)
            .build();

    /** meta-llama/Llama-3.1-8B: Llama-3-8B's shapes (its RoPE scaling and 128k positions change no weight). */
    public static final Model LLAMA_3_1_8B = renamed(LLAMA_3_8B, "Llama-3.1-8B", 131072);
    /** meta-llama/Llama-3.1-70B: Llama-3-70B's shapes. */
    public static final Model LLAMA_3_1_70B = renamed(LLAMA_3_70B, "Llama-3.1-70B", 131072);
    /** meta-llama/Llama-3.1-405B. */
    public static final Model LLAMA_3_1_405B =
            dense("Llama-3.1-405B", 16384, 126, 128, 8, 53248, 128256).withMaxPositions(131072);
    /** meta-llama/Llama-3.2-1B: head width 64, tied embeddings. */
    public static final Model LLAMA_3_2_1B =
            dense("Llama-3.2-1B", 2048, 16, 32, 8, 64, 8192, 128256, true).withMaxPositions(131072);
    /** meta-llama/Llama-3.2-3B: tied embeddings. */
    public static final Model LLAMA_3_2_3B =
            dense("Llama-3.2-3B", 3072, 28, 24, 8, 128, 8192, 128256, true).withMaxPositions(131072);
    /** meta-llama/Llama-3.3-70B-Instruct: Llama-3-70B's shapes. */
    public static final Model LLAMA_3_3_70B = renamed(LLAMA_3_70B, "Llama-3.3-70B", 131072);
    /**
     * mistralai/Mistral-Small-24B-Base-2501 (Mistral Small 3): 32 heads of 128 in a hidden size of 5120. Mistral Small
     * 3.1 and 3.2 share its language model; their vision encoder is not counted.
     */
    public static final Model MISTRAL_SMALL_24B = dense("Mistral-Small-24B", 5120, 40, 32, 8, 128, 32768, 131072, false)
            .withMaxPositions(32768);
    /** microsoft/phi-4 (model_type phi3: fused qkv_proj and gate_up_proj, the same elements as separate matrices). */
    public static final Model PHI_4 =
            dense("Phi-4", 5120, 40, 40, 10, 128, 17920, 100352, false).withMaxPositions(16384);
    /** Qwen/Qwen3-0.6B: q/k norms, tied embeddings. */
    public static final Model QWEN3_0_6B =
            qwen3("Qwen3-0.6B", 1024, 28, 16, 8, 3072, true).withMaxPositions(40960);
    /** Qwen/Qwen3-1.7B: q/k norms, tied embeddings. */
    public static final Model QWEN3_1_7B =
            qwen3("Qwen3-1.7B", 2048, 28, 16, 8, 6144, true).withMaxPositions(40960);
    /** Qwen/Qwen3-4B: q/k norms, tied embeddings. */
    public static final Model QWEN3_4B =
            qwen3("Qwen3-4B", 2560, 36, 32, 8, 9728, true).withMaxPositions(40960);
    /** Qwen/Qwen3-8B: q/k norms. */
    public static final Model QWEN3_8B =
            qwen3("Qwen3-8B", 4096, 36, 32, 8, 12288, false).withMaxPositions(40960);
    /** Qwen/Qwen3-14B: q/k norms. */
    public static final Model QWEN3_14B =
            qwen3("Qwen3-14B", 5120, 40, 40, 8, 17408, false).withMaxPositions(40960);
    /** Qwen/Qwen3-32B: q/k norms; 64 heads of 128 in a hidden size of 5120. */
    public static final Model QWEN3_32B =
            qwen3("Qwen3-32B", 5120, 64, 64, 8, 25600, false).withMaxPositions(40960);
    /** Qwen/Qwen3-30B-A3B: 128 experts top 8 in every layer, no shared expert, q/k norms. */
    public static final Model QWEN3_30B_A3B = Model.newBuilder("Qwen3-30B-A3B")
            .hiddenSize(2048)
            .layers(48)
            .vocabSize(151936)
            .attention(32, 4)
            .headDim(128)
            .qkNorm(true)
            .mixtureOfExperts(MixtureOfExperts.routed(128, 8, 768))
            .maxPositions(40960)
            .build();
    /** Qwen/Qwen3-235B-A22B: 128 experts top 8 in every layer, no shared expert, q/k norms. */
    public static final Model QWEN3_235B_A22B = Model.newBuilder("Qwen3-235B-A22B")
            .hiddenSize(4096)
            .layers(94)
            .vocabSize(151936)
            .attention(64, 4)
            .headDim(128)
            .qkNorm(true)
            .mixtureOfExperts(MixtureOfExperts.routed(128, 8, 1536))
            .maxPositions(40960)
            .build();
    /**
     * openai/gpt-oss-20b: 32 experts top 4 in every layer, the router and every expert with biases; 64 query heads of
     * 64 on 8 KV heads with q/k/v/o biases and a sink per head; 12 of the 24 layers attend to the last 128 tokens.
     */
    public static final Model GPT_OSS_20B = gptOss("gpt-oss-20b", 24, 32).withMaxPositions(131072);
    /** openai/gpt-oss-120b: gpt-oss-20b's layers, 36 of them with 128 experts each. */
    public static final Model GPT_OSS_120B = gptOss("gpt-oss-120b", 36, 128).withMaxPositions(131072);
    /**
     * google/gemma-3-1b-pt: 4 query heads of 256 on 1 KV head, q/k norms, four norms a layer, GeGLU, tied embeddings;
     * 22 of 26 layers (5 of every 6) attend to the last 512 tokens.
     */
    public static final Model GEMMA_3_1B =
            gemma3("Gemma-3-1B", 1152, 26, 4, 1, 256, 6912, 262144, 512).withMaxPositions(32768);
    /** google/gemma-3-4b-pt's language model (its vision encoder is not counted): 29 of 34 layers windowed (1024). */
    public static final Model GEMMA_3_4B =
            gemma3("Gemma-3-4B", 2560, 34, 8, 4, 256, 10240, 262208, 1024).withMaxPositions(131072);
    /** google/gemma-3-12b-pt's language model: 40 of 48 layers windowed (1024). */
    public static final Model GEMMA_3_12B =
            gemma3("Gemma-3-12B", 3840, 48, 16, 8, 256, 15360, 262208, 1024).withMaxPositions(131072);
    /** google/gemma-3-27b-pt's language model: 32 heads of 128, 52 of 62 layers windowed (1024). */
    public static final Model GEMMA_3_27B =
            gemma3("Gemma-3-27B", 5376, 62, 32, 16, 128, 21504, 262208, 1024).withMaxPositions(131072);
    /** deepseek-ai/DeepSeek-R1-Distill-Llama-8B: Llama-3.1-8B's shapes. */
    public static final Model DEEPSEEK_R1_DISTILL_LLAMA_8B =
            renamed(LLAMA_3_1_8B, "DeepSeek-R1-Distill-Llama-8B", 131072);
    /** deepseek-ai/DeepSeek-R1-Distill-Llama-70B: Llama-3.3-70B's shapes. */
    public static final Model DEEPSEEK_R1_DISTILL_LLAMA_70B =
            renamed(LLAMA_3_3_70B, "DeepSeek-R1-Distill-Llama-70B", 131072);
    /** deepseek-ai/DeepSeek-R1-Distill-Qwen-7B: Qwen2.5-7B's shapes (Q/K/V biases). */
    public static final Model DEEPSEEK_R1_DISTILL_QWEN_7B = renamed(QWEN2_5_7B, "DeepSeek-R1-Distill-Qwen-7B", 131072);
    /** deepseek-ai/DeepSeek-R1-Distill-Qwen-14B: Qwen2.5-14B's shapes (Q/K/V biases). */
    public static final Model DEEPSEEK_R1_DISTILL_QWEN_14B =
            qwen2("DeepSeek-R1-Distill-Qwen-14B", 48, 13824).withMaxPositions(131072);
    /** deepseek-ai/DeepSeek-R1-Distill-Qwen-32B: Qwen2.5-32B's shapes (Q/K/V biases). */
    public static final Model DEEPSEEK_R1_DISTILL_QWEN_32B =
            qwen2("DeepSeek-R1-Distill-Qwen-32B", 64, 27648).withMaxPositions(131072);

    private static final List<Model> PRESETS = List.of(
            LLAMA_2_7B,
            LLAMA_2_70B,
            LLAMA_3_8B,
            LLAMA_3_70B,
            LLAMA_3_1_8B,
            LLAMA_3_1_70B,
            LLAMA_3_1_405B,
            LLAMA_3_2_1B,
            LLAMA_3_2_3B,
            LLAMA_3_3_70B,
            MISTRAL_7B,
            MISTRAL_SMALL_24B,
            PHI_4,
            GEMMA_3_1B,
            GEMMA_3_4B,
            GEMMA_3_12B,
            GEMMA_3_27B,
            QWEN2_5_7B,
            QWEN3_0_6B,
            QWEN3_1_7B,
            QWEN3_4B,
            QWEN3_8B,
            QWEN3_14B,
            QWEN3_32B,
            QWEN3_30B_A3B,
            QWEN3_235B_A22B,
            MIXTRAL_8X7B,
            GPT_OSS_20B,
            GPT_OSS_120B,
            DEEPSEEK_V3,
            DEEPSEEK_R1_DISTILL_LLAMA_8B,
            DEEPSEEK_R1_DISTILL_LLAMA_70B,
            DEEPSEEK_R1_DISTILL_QWEN_7B,
            DEEPSEEK_R1_DISTILL_QWEN_14B,
            DEEPSEEK_R1_DISTILL_QWEN_32B);

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

    private static Model dense(
            String name,
            int hidden,
            int layers,
            int heads,
            int kvHeads,
            int headDim,
            int intermediate,
            int vocab,
            boolean tied) {
        return layers(name, hidden, layers, heads, kvHeads, headDim, vocab, tied)
                .swiGlu(intermediate)
                .build();
    }

    /** The sizes every multi-head preset states: hidden size, layers, heads, head width, vocabulary, tying. */
    private static Model.Builder layers(
            String name, int hidden, int layers, int heads, int kvHeads, int headDim, int vocab, boolean tied) {
        return Model.newBuilder(name)
                .hiddenSize(hidden)
                .layers(layers)
                .vocabSize(vocab)
                .tiedEmbeddings(tied)
                .attention(heads, kvHeads)
                .headDim(headDim);
    }

    /** A Qwen3 dense model: heads of 128, q/k norms, a vocabulary of 151,936. */
    private static Model qwen3(
            String name, int hidden, int layers, int heads, int kvHeads, int intermediate, boolean tied) {
        return layers(name, hidden, layers, heads, kvHeads, 128, 151936, tied)
                .qkNorm(true)
                .swiGlu(intermediate)
                .build();
    }

    /** A Qwen2.5 model of hidden size 5120 (14B, 32B): 40 heads of 128 on 8 KV heads, Q/K/V biases, untied. */
    private static Model qwen2(String name, int layers, int intermediate) {
        return layers(name, 5120, layers, 40, 8, 128, 152064, false)
                .qkvBias(true)
                .swiGlu(intermediate)
                .build();
    }

    /** A Gemma 3 language model: 5 of every 6 layers windowed, the 6th (and 12th, ...) global. */
    private static Model gemma3(
            String name,
            int hidden,
            int layers,
            int heads,
            int kvHeads,
            int headDim,
            int intermediate,
            int vocab,
            int window) {
        return layers(name, hidden, layers, heads, kvHeads, headDim, vocab, true)
                .qkNorm(true)
                .sandwichNorms(true)
                .geGlu(intermediate)
                .slidingWindow(window, layers - layers / 6)
                .build();
    }

    private static Model gptOss(String name, int layers, int experts) {
        return layers(name, 2880, layers, 64, 8, 64, 201088, false)
                .qkvBias(true)
                .outputBias(true)
                .attentionSinks(true)
                .mixtureOfExperts(MixtureOfExperts.routedWithBiases(experts, 4, 2880))
                .slidingWindow(128, layers / 2)
                .build();
    }

    /** {@code m}'s shapes under another name (a fine-tune or a later release of the same architecture). */
    private static Model renamed(Model m, String name, int maxPositions) {
        return new Model(
                name,
                m.hiddenSize(),
                m.layers(),
                m.vocabSize(),
                m.tiedEmbeddings(),
                m.attention(),
                m.feedForward(),
                m.slidingWindow(),
                m.sandwichNorms(),
                maxPositions,
                m.softCapping());
    }

    /**
     * The precisions a checkpoint is released in, where they differ by matrix: gpt-oss ships its routed experts in
     * MXFP4 and everything else (attention, router, embeddings) in BF16. The other presets ship one precision for
     * every matrix (16 bits; DeepSeek-V3 and R1 FP8 with 128 × 128 block scales, which no precision here names yet)
     * and have none here: they are priced at the precision asked for.
     *
     * @param weights every weight but the routed experts
     * @param experts the routed experts
     */
    public record Released(Precision weights, Precision experts) {}

    private static final Released GPT_OSS = new Released(Precision.BF16, Precision.MXFP4);

    /** {@code m}'s released precisions, when it is a preset released with its experts apart ({@link Released}). */
    public static Optional<Released> released(Model m) {
        return m == GPT_OSS_20B || m == GPT_OSS_120B ? Optional.of(GPT_OSS) : Optional.empty();
    }

    /**
     * A config.json's released precisions: gpt-oss's, for a {@code gpt_oss} model or one whose
     * {@code quantization_config} names {@code "quant_method": "mxfp4"} (the MXFP4 experts of the release).
     */
    public static Optional<Released> released(ModelConfig c) {
        boolean mxfp4 =
                c.fields().get("quantization_config") instanceof Map<?, ?> q && "mxfp4".equals(q.get("quant_method"));
        return c.modelType().equals("gpt_oss") || mxfp4 ? Optional.of(GPT_OSS) : Optional.empty();
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
