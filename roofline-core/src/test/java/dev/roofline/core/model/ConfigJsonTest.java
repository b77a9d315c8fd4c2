package dev.roofline.core.model;

import dev.roofline.core.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** config.json texts as published on Hugging Face (fields abridged where they do not shape the arithmetic). */
public class ConfigJsonTest {

    static final String LLAMA_3_8B = """
            {
              "architectures": ["LlamaForCausalLM"],
              "attention_bias": false,
              "bos_token_id": 128000,
              "hidden_act": "silu",
              "hidden_size": 4096,
              "intermediate_size": 14336,
              "max_position_embeddings": 8192,
              "model_type": "llama",
              "num_attention_heads": 32,
              "num_hidden_layers": 32,
              "num_key_value_heads": 8,
              "rms_norm_eps": 1e-05,
              "rope_theta": 500000.0,
              "tie_word_embeddings": false,
              "torch_dtype": "bfloat16",
              "vocab_size": 128256
            }
            """;

    @Test
    void llama3ConfigGivesThePresetShape() {
        Model m = ConfigJson.parse("Meta-Llama-3-8B", LLAMA_3_8B);
        assertThat(m.attention()).isEqualTo(Models.LLAMA_3_8B.attention());
        assertThat(m.feedForward()).isEqualTo(Models.LLAMA_3_8B.feedForward());
        assertThat(m.parameterCount()).isEqualTo(8_030_261_248L);
    }

    @Test
    void qwen2HasQkvBiasesWithoutSayingSo() {
        String qwen = """
                {"model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944, "num_attention_heads": 28,
                 "num_hidden_layers": 28, "num_key_value_heads": 4, "tie_word_embeddings": false, "vocab_size": 152064,
                 "rope_scaling": null, "sliding_window": 131072}
                """;
        assertThat(ConfigJson.parse("Qwen2.5-7B", qwen).parameterCount()).isEqualTo(7_615_616_512L);
    }

    static final String DEEPSEEK_V3 = """
            {"model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432, "moe_intermediate_size": 2048,
             "num_hidden_layers": 61, "num_attention_heads": 128, "num_key_value_heads": 128, "n_shared_experts": 1,
             "n_routed_experts": 256, "num_experts_per_tok": 8, "first_k_dense_replace": 3, "moe_layer_freq": 1,
             "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
             "v_head_dim": 128, "topk_method": "noaux_tc", "vocab_size": 129280, "tie_word_embeddings": false,
             "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "weight_block_size": [128, 128]}}
            """;

    @Test
    void mixtralAndDeepSeekConfigs() {
        String mixtral = """
                {"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
                 "num_hidden_layers": 32, "num_key_value_heads": 8, "num_local_experts": 8, "num_experts_per_tok": 2,
                 "vocab_size": 32000, "tie_word_embeddings": false, "router_aux_loss_coef": 0.02}
                """;
        assertThat(ConfigJson.parse("Mixtral", mixtral).parameterCount()).isEqualTo(46_702_792_704L);
        Model ds = ConfigJson.parse("DeepSeek-V3", DEEPSEEK_V3);
        assertThat(ds.attention()).isEqualTo(Models.DEEPSEEK_V3.attention());
        assertThat(ds.feedForward()).isEqualTo(Models.DEEPSEEK_V3.feedForward());
        assertThat(ds.parameterCount()).isEqualTo(671_026_419_200L);
    }

    @Test
    void missingOrMistypedKeysAreNamed() {
        assertThatThrownBy(() -> ConfigJson.parse("x", "{\"model_type\": \"llama\", \"hidden_size\": 4096}"))
                .hasMessageContaining("config.json needs \"num_attention_heads\"");
        assertThatThrownBy(() ->
                        ConfigJson.parse("x", LLAMA_3_8B.replace("\"hidden_size\": 4096", "\"hidden_size\": \"4096\"")))
                .hasMessageContaining("\"hidden_size\" must be a positive integer, got 4096");
        assertThatThrownBy(() -> ConfigJson.parse("x", "[1, 2]")).hasMessageContaining("must be a JSON object");
    }

    @Test
    void malformedJsonIsReportedWithLineAndColumn() {
        assertThatThrownBy(() -> ConfigJson.parse("x", "{\n  \"a\": 1,\n  \"b\": }"))
                .hasMessageContaining("JSON line 3 column 8")
                .hasMessageContaining("expected a value");
        assertThatThrownBy(() -> ConfigJson.parse("x", "{\"a\": 1, \"a\": 2}"))
                .hasMessageContaining("duplicate key \"a\"");
        assertThatThrownBy(() -> ConfigJson.parse("x", "{\"a\": 1} x")).hasMessageContaining("after the JSON value");
        assertThatThrownBy(() -> ConfigJson.parse("x", "{\"a\": 01}")).hasMessageContaining("expected ',' or '}'");
        assertThatThrownBy(() -> ConfigJson.parse("x", "{\"a\": \"x")).hasMessageContaining("unexpected end of input");
    }

    @Test
    void jsonValuesOfEveryKind() {
        Object v = Json.parse(
                "{\"s\": \"a\\u0041\\n\", \"n\": -1.5e2, \"i\": 7, \"t\": true, \"z\": null, \"l\": [1, [], {}]}");
        assertThat(v).isInstanceOf(java.util.Map.class);
        java.util.Map<?, ?> m = (java.util.Map<?, ?>) v;
        assertThat(m.get("s")).isEqualTo("aA\n");
        assertThat(m.get("n")).isEqualTo(-150.0);
        assertThat(m.get("i")).isEqualTo(7L);
        assertThat(m.get("t")).isEqualTo(true);
        assertThat(m.containsKey("z")).isTrue();
        assertThat((java.util.List<?>) m.get("l")).hasSize(3);
    }

    @Test
    void unknownModelTypeIsRejectedNamingTheFieldAndTheSupportedTypes() {
        // Qwen1.5-MoE has experts under names this reader does not map: priced as a dense Llama it would be wrong
        String qwenMoe = LLAMA_3_8B.replace("\"model_type\": \"llama\"", "\"model_type\": \"qwen2_moe\"");
        assertThatThrownBy(() -> ConfigJson.parse("x", qwenMoe))
                .hasMessage("config.json field model_type \"qwen2_moe\" is not supported; supported: llama, mistral,"
                        + " qwen2, qwen3, phi3, gemma3, gemma3_text, mixtral, qwen3_moe, gpt_oss, deepseek_v3");
        assertThatThrownBy(() -> ConfigJson.parse("x", LLAMA_3_8B.replace("\"model_type\": \"llama\",", "")))
                .hasMessage("config.json has no \"model_type\"; supported: llama, mistral, qwen2, qwen3, phi3, gemma3,"
                        + " gemma3_text, mixtral, qwen3_moe, gpt_oss, deepseek_v3");
        assertThatThrownBy(() ->
                        ConfigJson.parse("x", LLAMA_3_8B.replace("\"model_type\": \"llama\"", "\"model_type\": 7")))
                .hasMessageContaining("model_type must be a string, got 7")
                .hasMessageContaining("supported: llama");
    }

    @Test
    void aFileNamesTheFieldAndItselfInTheError(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("config.json"), "{\"model_type\": \"bert\"}");
        assertThatThrownBy(() -> ConfigJson.read(file))
                .hasMessage(
                        file + ": config.json field model_type \"bert\" is not supported; supported: llama, mistral,"
                                + " qwen2, qwen3, phi3, gemma3, gemma3_text, mixtral, qwen3_moe, gpt_oss, deepseek_v3");
    }

    @Test
    void hiddenSizeMustSplitIntoWholeHeadsWithoutHeadDim() {
        // 4100 / 32 = 128.125: the head width would be truncated to 128
        String odd = LLAMA_3_8B.replace("\"hidden_size\": 4096", "\"hidden_size\": 4100");
        assertThatThrownBy(() -> ConfigJson.parse("x", odd))
                .hasMessageContaining("\"hidden_size\" 4100 is not a multiple of" + " \"num_attention_heads\" 32");
        // an explicit head_dim (Mistral-Nemo: hidden 5120, 32 heads of 128) needs no such split
        String nemo = LLAMA_3_8B.replace("\"hidden_size\": 4096", "\"hidden_size\": 4100, \"head_dim\": 128");
        assertThat(ConfigJson.parse("x", nemo).attention()).isNotNull();
    }

    @Test
    void theModelIsNamedForItsCheckpointFolder(@TempDir Path dir) throws IOException {
        Path folder = Files.createDirectory(dir.resolve("Meta-Llama-3-8B"));
        assertThat(ConfigJson.read(Files.writeString(folder.resolve("config.json"), LLAMA_3_8B))
                        .name())
                .isEqualTo("Meta-Llama-3-8B");
        assertThat(ConfigJson.read(Files.writeString(dir.resolve("llama3.json"), LLAMA_3_8B))
                        .name())
                .isEqualTo("llama3");
        assertThat(ConfigJson.modelName(Path.of("config.json")))
                .isEqualTo(Path.of("").toAbsolutePath().getFileName().toString());
    }

    @Test
    void readConfigKeepsTheFieldsInFileOrder() {
        ModelConfig c = ConfigJson.parseConfig("x", LLAMA_3_8B);
        assertThat(c.modelType()).isEqualTo("llama");
        assertThat(c.fields().keySet()).startsWith("architectures", "attention_bias", "bos_token_id");
        assertThat(c.fields().get("rms_norm_eps")).isEqualTo(1e-5);
        assertThat(c.model().parameterCount()).isEqualTo(8_030_261_248L);
    }

    static final String QWEN1_5_MOE_A2_7B = """
            {"architectures": ["Qwen2MoeForCausalLM"], "model_type": "qwen2_moe", "hidden_size": 2048,
             "intermediate_size": 5632, "moe_intermediate_size": 1408, "shared_expert_intermediate_size": 5632,
             "num_attention_heads": 16, "num_key_value_heads": 16, "num_hidden_layers": 24, "num_experts": 60,
             "num_experts_per_tok": 4, "decoder_sparse_step": 1, "vocab_size": 151936, "tie_word_embeddings": false}
            """;

    @Test
    void qwenMoeIsRefusedUnderItsOwnTypeAndUnderADenseOne() {
        // Qwen/Qwen1.5-MoE-A2.7B: 14.3 B parameters; read as a dense Llama it was 1.86 B
        assertThatThrownBy(() -> ConfigJson.parse("x", QWEN1_5_MOE_A2_7B))
                .hasMessage("config.json field model_type \"qwen2_moe\" is not supported; supported: llama, mistral,"
                        + " qwen2, qwen3, phi3, gemma3, gemma3_text, mixtral, qwen3_moe, gpt_oss, deepseek_v3");
        for (String dense : List.of("qwen2", "llama", "mistral")) {
            assertThatThrownBy(() ->
                            ConfigJson.parse("x", QWEN1_5_MOE_A2_7B.replace("\"qwen2_moe\"", "\"" + dense + "\"")))
                    .hasMessage(
                            "config.json field \"num_experts\" does not fit model_type \"" + dense
                                    + "\" (a dense architecture: a mixture of experts needs its own model_type); supported:"
                                    + " llama, mistral, qwen2, qwen3, phi3, gemma3, gemma3_text, mixtral, qwen3_moe, gpt_oss, deepseek_v3");
        }
    }

    static final String QWEN3_8B = """
            {"architectures": ["Qwen3ForCausalLM"], "attention_bias": false, "head_dim": 128, "hidden_size": 4096,
             "intermediate_size": 12288, "max_position_embeddings": 40960, "max_window_layers": 36,
             "model_type": "qwen3", "num_attention_heads": 32, "num_hidden_layers": 36, "num_key_value_heads": 8,
             "rope_scaling": null, "rope_theta": 1000000, "sliding_window": null, "tie_word_embeddings": false,
             "use_sliding_window": false, "vocab_size": 151936}
            """;

    static final String QWEN3_30B_A3B = """
            {"architectures": ["Qwen3MoeForCausalLM"], "attention_bias": false, "decoder_sparse_step": 1,
             "head_dim": 128, "hidden_size": 2048, "intermediate_size": 6144, "max_position_embeddings": 40960,
             "mlp_only_layers": [], "model_type": "qwen3_moe", "moe_intermediate_size": 768, "norm_topk_prob": true,
             "num_attention_heads": 32, "num_experts": 128, "num_experts_per_tok": 8, "num_hidden_layers": 48,
             "num_key_value_heads": 4, "sliding_window": null, "tie_word_embeddings": false,
             "use_sliding_window": false, "vocab_size": 151936}
            """;

    static final String PHI_4 = """
            {"architectures": ["Phi3ForCausalLM"], "hidden_size": 5120, "intermediate_size": 17920,
             "max_position_embeddings": 16384, "model_type": "phi3", "num_attention_heads": 40,
             "num_hidden_layers": 40, "num_key_value_heads": 10, "original_max_position_embeddings": 16384,
             "rope_scaling": null, "sliding_window": null, "tie_word_embeddings": false, "vocab_size": 100352}
            """;

    public static final String GPT_OSS_20B = """
            {"architectures": ["GptOssForCausalLM"], "attention_bias": true, "experts_per_token": 4, "head_dim": 64,
             "hidden_act": "silu", "hidden_size": 2880, "initial_context_length": 4096, "intermediate_size": 2880,
             "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention",
               "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention",
               "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention",
               "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention",
               "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention"],
             "max_position_embeddings": 131072, "model_type": "gpt_oss", "num_attention_heads": 64,
             "num_experts_per_tok": 4, "num_hidden_layers": 24, "num_key_value_heads": 8, "num_local_experts": 32,
             "quantization_config": {"quant_method": "mxfp4"}, "rope_theta": 150000, "sliding_window": 128,
             "swiglu_limit": 7.0, "tie_word_embeddings": false, "vocab_size": 201088}
            """;

    static final String GEMMA_3_1B = """
            {"architectures": ["Gemma3ForCausalLM"], "attention_bias": false, "attn_logit_softcapping": null,
             "final_logit_softcapping": null, "head_dim": 256, "hidden_activation": "gelu_pytorch_tanh",
             "hidden_size": 1152, "intermediate_size": 6912, "max_position_embeddings": 32768,
             "model_type": "gemma3_text", "num_attention_heads": 4, "num_hidden_layers": 26, "num_key_value_heads": 1,
             "query_pre_attn_scalar": 256, "rope_local_base_freq": 10000, "rope_theta": 1000000,
             "sliding_window": 512, "sliding_window_pattern": 6, "vocab_size": 262144}
            """;

    /** google/gemma-3-4b-pt: the text model's fields under text_config, most left to transformers' defaults. */
    static final String GEMMA_3_4B = """
            {"architectures": ["Gemma3ForConditionalGeneration"], "boi_token_index": 255999, "eoi_token_index": 256000,
             "image_token_index": 262144, "mm_tokens_per_image": 256, "model_type": "gemma3",
             "text_config": {"hidden_size": 2560, "intermediate_size": 10240, "model_type": "gemma3_text",
               "num_hidden_layers": 34, "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024},
             "vision_config": {"hidden_size": 1152, "image_size": 896, "intermediate_size": 4304,
               "model_type": "siglip_vision_model", "num_attention_heads": 16, "num_hidden_layers": 27,
               "patch_size": 14, "vision_use_head": false}}
            """;

    @Test
    void gemma3SoftCappingIsReadWhereAFileSetsIt() {
        Model capped = ConfigJson.parse(
                "x",
                GEMMA_3_1B
                        .replace("\"final_logit_softcapping\": null", "\"final_logit_softcapping\": 30.0")
                        .replace("\"attn_logit_softcapping\": null", "\"attn_logit_softcapping\": 50.0"));
        assertThat(capped.softCapping()).isEqualTo(new SoftCapping(50, 30));
        // the caps change no shape
        assertThat(capped.parameterCount()).isEqualTo(999_885_952L);
    }

    @Test
    void gemma3ConfigsGiveThePresetsWithTransformersDefaults() {
        Model one = ConfigJson.parse("x", GEMMA_3_1B);
        assertThat(one.attention()).isEqualTo(Models.GEMMA_3_1B.attention());
        assertThat(one.feedForward()).isEqualTo(Models.GEMMA_3_1B.feedForward());
        assertThat(one.slidingWindow()).isEqualTo(Models.GEMMA_3_1B.slidingWindow());
        assertThat(one.parameterCount()).isEqualTo(999_885_952L);
        Model four = ConfigJson.parse("x", GEMMA_3_4B);
        assertThat(four.attention()).isEqualTo(Models.GEMMA_3_4B.attention());
        assertThat(four.slidingWindow()).isEqualTo(Models.GEMMA_3_4B.slidingWindow());
        assertThat(four.parameterCount()).isEqualTo(Models.GEMMA_3_4B.parameterCount());
        assertThat(one.softCapping()).isEqualTo(SoftCapping.NONE);
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x",
                        GEMMA_3_1B.replace("\"final_logit_softcapping\": null", "\"final_logit_softcapping\": -1")))
                .hasMessageContaining("\"final_logit_softcapping\" must be a positive number or null, got -1");
        assertThatThrownBy(() -> ConfigJson.parse("x", "{\"model_type\": \"gemma3\", \"vision_config\": {}}"))
                .hasMessageContaining("needs \"text_config\"");
        assertThatThrownBy(() -> ConfigJson.parse("x", GEMMA_3_1B.replace("\"gelu_pytorch_tanh\"", "\"silu\"")))
                .hasMessageStartingWith("config.json \"hidden_activation\" silu is not supported");
    }

    @Test
    void gptOssConfigGivesThePresetWithItsWindowedLayers() {
        Model m = ConfigJson.parse("gpt-oss-20b", GPT_OSS_20B);
        assertThat(m.attention()).isEqualTo(Models.GPT_OSS_20B.attention());
        assertThat(m.feedForward()).isEqualTo(Models.GPT_OSS_20B.feedForward());
        assertThat(m.slidingWindow()).isEqualTo(new SlidingWindow(128, 12));
        assertThat(m.parameterCount()).isEqualTo(20_914_757_184L);
        // without layer_types transformers alternates, starting with a windowed layer
        String noTypes = GPT_OSS_20B.replaceAll("\"layer_types\": \\[[^]]*],", "");
        assertThat(ConfigJson.parse("x", noTypes).slidingWindow()).isEqualTo(new SlidingWindow(128, 12));
        assertThatThrownBy(() -> ConfigJson.parse("x", GPT_OSS_20B.replaceFirst("\"full_attention\"", "\"chunked\"")))
                .hasMessage(
                        "config.json \"layer_types\" entry chunked is not \"sliding_attention\" or \"full_attention\"");
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x", GPT_OSS_20B.replace("\"num_hidden_layers\": 24", "\"num_hidden_layers\": 23")))
                .hasMessageStartingWith("config.json \"layer_types\" must list one type per layer (23)");
        assertThatThrownBy(() -> ConfigJson.parse("x", noTypes.replace("\"sliding_window\": 128,", "")))
                .hasMessage("config.json needs \"sliding_window\"");
    }

    @Test
    void qwen3Phi3AndQwen3MoeConfigsGiveThePresets() {
        for (var c : List.of(
                List.of(QWEN3_8B, Models.QWEN3_8B),
                List.of(QWEN3_30B_A3B, Models.QWEN3_30B_A3B),
                List.of(PHI_4, Models.PHI_4))) {
            Model m = ConfigJson.parse("x", (String) c.get(0));
            Model preset = (Model) c.get(1);
            assertThat(m.attention()).isEqualTo(preset.attention());
            assertThat(m.feedForward()).isEqualTo(preset.feedForward());
            assertThat(m.parameterCount()).isEqualTo(preset.parameterCount());
        }
        // Qwen3's small models tie their embeddings
        Model tied = ConfigJson.parse(
                "x", QWEN3_8B.replace("\"tie_word_embeddings\": false", "\"tie_word_embeddings\": true"));
        assertThat(Models.QWEN3_8B.parameterCount() - tied.parameterCount()).isEqualTo(151936L * 4096);
    }

    @Test
    void mistralsWindowHoldsInEveryLayerAndQwen2sIsRefused() {
        String mistral = """
                {"model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
                 "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 32000, "sliding_window": 4096,
                 "max_position_embeddings": 32768}
                """;
        Model m = ConfigJson.parse("Mistral-7B-v0.1", mistral);
        assertThat(m.slidingWindow())
                .isEqualTo(new SlidingWindow(4096, 32))
                .isEqualTo(Models.MISTRAL_7B.slidingWindow());
        // at 32k tokens every layer holds 4096: an eighth of the cache without the window
        assertThat(m.kvCacheBytes(dev.roofline.core.precision.Precision.FP16, 32768))
                .isEqualTo(32L * 4096 * 2 * 8 * 128 * 2);
        assertThat(ConfigJson.parse("x", mistral.replace("\"sliding_window\": 4096", "\"sliding_window\": null"))
                        .slidingWindow())
                .isEqualTo(SlidingWindow.NONE);
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x",
                        mistral.replace("\"mistral\"", "\"qwen2\"")
                                .replace("\"sliding_window\": 4096", "\"use_sliding_window\": true")))
                .hasMessageContaining("sliding-window attention is not supported yet");
    }

    @Test
    void qwen3HeadsAre128WideWithoutHeadDimAsTransformersDefaults() {
        // Qwen3-32B: 64 heads in a hidden size of 5120; without head_dim transformers still builds heads of 128
        String noHeadDim = QWEN3_8B.replace("\"head_dim\": 128, ", "")
                .replace("\"hidden_size\": 4096", "\"hidden_size\": 5120")
                .replace("\"num_attention_heads\": 32", "\"num_attention_heads\": 64");
        assertThat(((MultiHeadAttention) ConfigJson.parse("x", noHeadDim).attention()).headDim())
                .isEqualTo(128);
    }

    @Test
    void slidingWindowsAndPartlyRoutedQwen3MixturesAreRefusedByName() {
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x",
                        QWEN3_8B.replace("\"sliding_window\": null", "\"sliding_window\": 4096")
                                .replace("\"use_sliding_window\": false", "\"use_sliding_window\": true")))
                .hasMessageStartingWith(
                        "config.json \"sliding_window\" 4096: sliding-window attention is not supported");
        // Phi-3-mini-4k: a window of 2047 under 4096 positions; a window as long as the positions is no window
        String phiWindow = PHI_4.replace("\"sliding_window\": null", "\"sliding_window\": 2047");
        assertThatThrownBy(() -> ConfigJson.parse("x", phiWindow))
                .hasMessageStartingWith("config.json \"sliding_window\" 2047: sliding-window attention");
        assertThat(ConfigJson.parse("x", PHI_4.replace("\"sliding_window\": null", "\"sliding_window\": 16384"))
                        .parameterCount())
                .isEqualTo(Models.PHI_4.parameterCount());
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x", QWEN3_30B_A3B.replace("\"decoder_sparse_step\": 1", "\"decoder_sparse_step\": 2")))
                .hasMessage("config.json \"decoder_sparse_step\" 2 is not supported: every layer must be routed (1)");
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x", QWEN3_30B_A3B.replace("\"mlp_only_layers\": []", "\"mlp_only_layers\": [0, 47]")))
                .hasMessage(
                        "config.json \"mlp_only_layers\" [0, 47] is not supported: every layer must be routed ([])");
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x", QWEN3_8B.replace("\"attention_bias\": false", "\"attention_bias\": true")))
                .hasMessage("config.json \"attention_bias\": true is not supported (its biases would not be counted)");
        // Qwen3's experts are num_experts; Mixtral's name under qwen3_moe is another architecture's
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x", QWEN3_30B_A3B.replace("\"num_experts\": 128", "\"num_local_experts\": 128")))
                .hasMessageStartingWith(
                        "config.json field \"num_local_experts\" does not fit model_type \"qwen3_moe\"");
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x", QWEN3_8B.replace("\"vocab_size\": 151936", "\"vocab_size\": 151936, \"num_experts\": 8")))
                .hasMessageStartingWith("config.json field \"num_experts\" does not fit model_type \"qwen3\"");
    }

    @Test
    void kvHeadsMustDivideTheHeadsAndNotExceedThem() {
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x", LLAMA_3_8B.replace("\"num_key_value_heads\": 8", "\"num_key_value_heads\": 64")))
                .hasMessage("config.json \"num_key_value_heads\" 64 is more than \"num_attention_heads\" 32");
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x", LLAMA_3_8B.replace("\"num_key_value_heads\": 8", "\"num_key_value_heads\": 5")))
                .hasMessage("config.json \"num_attention_heads\" 32 is not a multiple of \"num_key_value_heads\" 5");
    }

    @Test
    void nonPositiveSizesAreRefusedByName() {
        for (String field :
                List.of("hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers", "vocab_size")) {
            String zero = LLAMA_3_8B.replaceFirst("\"" + field + "\": \\d+", "\"" + field + "\": 0");
            assertThatThrownBy(() -> ConfigJson.parse("x", zero))
                    .hasMessage("config.json \"" + field + "\" must be a positive integer, got 0");
            String negative = LLAMA_3_8B.replaceFirst("\"" + field + "\": \\d+", "\"" + field + "\": -3");
            assertThatThrownBy(() -> ConfigJson.parse("x", negative))
                    .hasMessage("config.json \"" + field + "\" must be a positive integer, got -3");
        }
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x", LLAMA_3_8B.replace("\"hidden_size\": 4096", "\"hidden_size\": 4096, \"head_dim\": 0")))
                .hasMessage("config.json \"head_dim\" must be a positive integer, got 0");
    }

    static final String MIXTRAL = """
            {"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
             "num_hidden_layers": 32, "num_key_value_heads": 8, "num_local_experts": 8, "num_experts_per_tok": 2,
             "vocab_size": 32000, "tie_word_embeddings": false}
            """;

    @Test
    void mixtureOfExpertsFieldsMustAgree() {
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x", MIXTRAL.replace("\"num_experts_per_tok\": 2", "\"num_experts_per_tok\": 9")))
                .hasMessage("config.json \"num_experts_per_tok\" 9 is more than the 8 experts (\"num_local_experts\")");
        assertThatThrownBy(() -> ConfigJson.parse("x", MIXTRAL.replace("\"num_local_experts\": 8,", "")))
                .hasMessage("config.json needs \"num_local_experts\"");
        // expert counts without expert sizes
        assertThatThrownBy(() -> ConfigJson.parse("x", MIXTRAL.replace("\"intermediate_size\": 14336,", "")))
                .hasMessage("config.json needs \"intermediate_size\"");
        assertThatThrownBy(() -> ConfigJson.parse("x", DEEPSEEK_V3.replace("\"moe_intermediate_size\": 2048,", "")))
                .hasMessage("config.json needs \"moe_intermediate_size\"");
        // DeepSeek's field names under Mixtral's type, and the other way round
        assertThatThrownBy(() ->
                        ConfigJson.parse("x", MIXTRAL.replace("\"num_local_experts\": 8", "\"n_routed_experts\": 8")))
                .hasMessageStartingWith("config.json field \"n_routed_experts\" does not fit model_type \"mixtral\"");
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x", DEEPSEEK_V3.replace("\"n_routed_experts\": 256", "\"num_local_experts\": 256")))
                .hasMessageStartingWith(
                        "config.json field \"num_local_experts\" does not fit model_type \"deepseek_v3\"");
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x", DEEPSEEK_V3.replace("\"num_experts_per_tok\": 8", "\"num_experts_per_tok\": 257")))
                .hasMessage(
                        "config.json \"num_experts_per_tok\" 257 is more than the 256 experts (\"n_routed_experts\")");
    }

    @Test
    void deepSeekLayerFieldsMustAgree() {
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x", DEEPSEEK_V3.replace("\"first_k_dense_replace\": 3", "\"first_k_dense_replace\": 62")))
                .hasMessage("config.json \"first_k_dense_replace\" 62 is more than \"num_hidden_layers\" 61");
        assertThatThrownBy(() ->
                        ConfigJson.parse("x", DEEPSEEK_V3.replace("\"moe_layer_freq\": 1", "\"moe_layer_freq\": 2")))
                .hasMessageStartingWith("config.json \"moe_layer_freq\" 2 is not supported");
        assertThatThrownBy(() -> ConfigJson.parse("x", DEEPSEEK_V3.replace("\"kv_lora_rank\": 512,", "")))
                .hasMessage("config.json needs \"kv_lora_rank\"");
        // no dense layer at all is allowed: 61 routed layers, 3 more than DeepSeek-V3's 58
        Model allRouted = ConfigJson.parse(
                "x", DEEPSEEK_V3.replace("\"first_k_dense_replace\": 3", "\"first_k_dense_replace\": 0"));
        assertThat(((MixtureOfExperts) allRouted.feedForward()).moeLayers(61)).isEqualTo(61);
    }

    @Test
    void biasesThisReaderWouldNotCountAreRefused() {
        // transformers' Llama puts attention_bias on q, k, v and o_proj, mlp_bias on gate, up and down
        assertThatThrownBy(() -> ConfigJson.parse(
                        "x", LLAMA_3_8B.replace("\"attention_bias\": false", "\"attention_bias\": true")))
                .hasMessage("config.json \"attention_bias\": true is not supported (its biases would not be counted)");
        assertThatThrownBy(() ->
                        ConfigJson.parse("x", LLAMA_3_8B.replace("\"attention_bias\": false", "\"mlp_bias\": true")))
                .hasMessageStartingWith("config.json \"mlp_bias\": true is not supported");
    }

    @Test
    void anExplicitHeadDimIsHonouredAsTransformersDoes() {
        // mistralai/Mistral-Nemo-Base-2407: 32 heads of 128 (not 5120 / 32 = 160), 8 KV heads, 40 layers.
        // per layer: q 4096·5120 + k, v 2·1024·5120 + o 5120·4096 + MLP 3·14336·5120 + norms 2·5120 = 272,640,000;
        // 40 layers 10,905,600,000 + embedding and head 2·131072·5120 = 1,342,177,280 + final norm 5120
        String nemo = """
                {"model_type": "mistral", "hidden_size": 5120, "head_dim": 128, "intermediate_size": 14336,
                 "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 40, "vocab_size": 131072,
                 "tie_word_embeddings": false}
                """;
        assertThat(ConfigJson.parse("Mistral-Nemo", nemo).parameterCount()).isEqualTo(12_247_782_400L);
    }

    @Test
    void nullArgumentsAreNamed() {
        assertThatThrownBy(() -> ConfigJson.read(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("file must not be null");
        assertThatThrownBy(() -> ConfigJson.modelName(null)).hasMessage("file must not be null");
        assertThatThrownBy(() -> ConfigJson.parse("x", null))
                .hasMessage("config.json is not valid JSON: JSON text must not be null");
        assertThatThrownBy(() -> ConfigJson.parse(null, LLAMA_3_8B)).hasMessage("name must not be blank, got null");
        assertThatThrownBy(() -> Models.LLAMA_3_8B.weightBytes(null)).hasMessage("weights must not be null");
        assertThatThrownBy(() -> Models.LLAMA_3_8B.matrices().getFirst().bytes(null))
                .hasMessage("precision must not be null");
        assertThatThrownBy(() -> Models.byName(null)).hasMessageStartingWith("model must not be null; known: ");
    }
}
