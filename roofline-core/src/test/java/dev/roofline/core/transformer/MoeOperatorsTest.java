package dev.roofline.core.transformer;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.ConfigJson;
import dev.roofline.core.model.LatentAttention;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Attention;
import dev.roofline.core.roofline.GroupedGemm;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Mixtral-8x7B (8 experts, top 2, d_ff 14336) and DeepSeek-V3 (MLA, 256 experts top 8, 1 shared), by hand. */
class MoeOperatorsTest {

    static final long H = 4096, FF = 14336;

    static Map<String, Step> steps(List<Step> steps) {
        return steps.stream()
                .collect(Collectors.toMap(s -> s.name() + "@" + s.count(), Function.identity(), (a, b) -> a));
    }

    @Test
    void mixtralDecodeAtBatch1ReadsExactlyTwoExperts() {
        Map<String, Step> st = steps(Operators.of(Models.MIXTRAL_8X7B, Workload.decode(1, 1024)));
        assertThat(st.get("router@32").operator().flops()).isEqualTo(2 * 8 * H);
        assertThat(st.get("router@32").operator().bytes()).isEqualTo((8 * H + H + 8) * 2);
        assertThat(st.get("top-k@32").operator().flops()).isEqualTo(8 * (5 + 2));
        assertThat(st.get("top-k@32").operator().bytes()).isEqualTo(8 * 2 + 2 * (4 + 4));
        GroupedGemm gate = (GroupedGemm) st.get("experts gate_proj@32").operator();
        assertThat(gate.expertsTouched()).isCloseTo(2, within(1e-12));
        assertThat(gate.flops()).isEqualTo(2 * 2 * FF * H);
        assertThat(gate.bytes()).isEqualTo(2 * FF * H * 2 + 2 * H * 2 + 2 * FF * 2);
        assertThat(st.get("experts down_proj@32").operator().bytes())
                .isEqualTo(2 * H * FF * 2 + 2 * FF * 2 + 2 * H * 2);
        assertThat(st.get("experts silu*up@32").operator().flops()).isEqualTo(2 * FF * 4);
        assertThat(st.get("expert combine@32").operator().flops()).isEqualTo(H * 2 * 2);
        assertThat(st.get("expert combine@32").operator().bytes()).isEqualTo((2 * H + H) * 2);
    }

    @Test
    void mixtralDecodeMatmulFlopsAreTwiceTheActiveLayerWeightsPlusFourSHd() {
        long s = 1024;
        long active = 2 * H * H + 2 * H * 1024 + 8 * H + 2 * 3 * H * FF;
        long matmul = 0;
        for (Step x : Operators.of(Models.MIXTRAL_8X7B, Workload.decode(1, s))) {
            if (x.matmul() && x.count() == 32) {
                matmul += x.operator() instanceof Attention a
                        ? a.matmulFlops()
                        : x.operator().flops();
            }
        }
        assertThat(matmul).isEqualTo(2 * active + 4 * s * 32 * 128);
    }

    @Test
    void mixtralBatch16ReadsTheExpectedDistinctExperts() {
        Map<String, Step> st = steps(Operators.of(Models.MIXTRAL_8X7B, Workload.decode(16, 1024)));
        double touched = 8 * (1 - Math.pow(0.75, 16));
        GroupedGemm gate = (GroupedGemm) st.get("experts gate_proj@32").operator();
        assertThat(gate.expertsTouched()).isCloseTo(touched, within(1e-9));
        assertThat(gate.bytes()).isEqualTo((long) Math.ceil(touched * FF * H * 2) + 32 * H * 2 + 32 * FF * 2);
        assertThat(gate.flops()).isEqualTo(2 * 32 * FF * H);
    }

    @Test
    void deepSeekAbsorbedDecodeReadsTheCompressedCacheOnce() {
        long s = 4096, h = 7168;
        Map<String, Step> st = steps(Operators.of(Models.DEEPSEEK_V3, Workload.decode(1, s)));
        Attention a = (Attention) st.get("latent attention@61").operator();
        // 128 heads attend over one shared latent of 512 + 64 per token; V is the latent itself
        assertThat(a.matmulFlops()).isEqualTo(2 * 128 * s * (576 + 512));
        assertThat(a.bytes()).isEqualTo(128 * 576 * 2 + 128 * 512 * 2 + s * 576 * 2);
        assertThat(st.get("q absorb (W_UK)@61").operator().flops()).isEqualTo(2 * 128 * 512 * 128);
        assertThat(st.get("dense gate_proj@3").operator().flops()).isEqualTo(2 * 18432 * h);
        assertThat(st.get("shared gate_proj@58").operator().flops()).isEqualTo(2 * 2048 * h);
        assertThat(((GroupedGemm) st.get("experts gate_proj@58").operator()).expertsTouched())
                .isCloseTo(8, within(1e-9));
    }

    @Test
    void deepSeekDecodeMatmulFlopsPerMoeLayer() {
        long s = 4096, h = 7168;
        long mla = h * 1536 + 1536L * 128 * 192 + h * 576 + 512L * 128 * 256 + 128L * 128 * h;
        long moeActive = 256 * h + 8 * 3 * h * 2048 + 3 * h * 2048;
        long matmul = 0;
        for (Step x : Operators.of(Models.DEEPSEEK_V3, Workload.decode(1, s))) {
            if (x.matmul() && (x.count() == 61 || x.count() == 58)) {
                matmul += x.operator() instanceof Attention a
                        ? a.matmulFlops()
                        : x.operator().flops();
            }
        }
        assertThat(matmul).isEqualTo(2 * (mla + moeActive) + 2 * 128 * s * (576 + 512));
    }

    @Test
    void deepSeekPrefillExpandsTheLatentPerHead() {
        long s = 1024;
        Map<String, Step> st = steps(Operators.of(Models.DEEPSEEK_V3, Workload.prefill(1, s)));
        assertThat(st.get("kv_b_proj@61").operator().flops()).isEqualTo(2 * s * 128 * 256 * 512);
        Attention a = (Attention) st.get("attention@61").operator();
        assertThat(a.matmulFlops()).isEqualTo(2 * 128 * s * s * (192 + 128));
    }

    @Test
    void deepSeekWhoseDenseLayersCoverEveryLayerPredictsAsTheDenseModel() {
        // first_k_dense_replace = num_hidden_layers: Hugging Face's DeepseekV3 builds a dense MLP in every layer
        String json = """
                {"model_type": "deepseek_v3", "hidden_size": 1024, "intermediate_size": 2816, "moe_intermediate_size": 512,
                 "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 8, "n_shared_experts": 1,
                 "n_routed_experts": 16, "num_experts_per_tok": 2, "first_k_dense_replace": 4, "q_lora_rank": 256,
                 "kv_lora_rank": 128, "qk_nope_head_dim": 64, "qk_rope_head_dim": 32, "v_head_dim": 64,
                 "vocab_size": 32000, "tie_word_embeddings": false}
                """;
        Model allDense = ConfigJson.parse("all-dense", json);
        Model dense = Model.newBuilder("dense")
                .hiddenSize(1024)
                .layers(4)
                .vocabSize(32000)
                .latentAttention(new LatentAttention(8, 256, 128, 64, 32, 64))
                .swiGlu(2816)
                .build();
        for (Workload w : List.of(Workload.decode(2, 512), Workload.prefill(1, 256))) {
            ModelPrediction p = Transformer.of(allDense, Hardware.H100_SXM).predict(w);
            ModelPrediction q = Transformer.of(dense, Hardware.H100_SXM).predict(w);
            assertThat(p.operators())
                    .noneMatch(o -> o.name().startsWith("experts") || o.name().equals("router"));
            assertThat(p.bytes()).isEqualTo(q.bytes());
            assertThat(p.flops()).isEqualTo(q.flops());
            assertThat(p.timeSeconds()).isCloseTo(q.timeSeconds(), within(1e-15));
        }
    }

    @Test
    void gptOssAsReleasedStoresItsExpertsInMxfp4AndTheRestInBf16() {
        Workload w = Workload.decode(1, 1024).withWeights(Precision.BF16).withExpertWeights(Precision.MXFP4);
        long experts = 24L * 32 * 3 * 2880 * 2880;
        long others = Models.GPT_OSS_20B.parameterCount() - experts - Models.GPT_OSS_20B.vectorParameters();
        // MXFP4: half a byte per element and one E8M0 byte per 32; every other matrix and every vector in BF16
        long expected = experts / 2 + experts / 32 + 2 * others + 2 * Models.GPT_OSS_20B.vectorParameters();
        assertThat(Transformer.of(Models.GPT_OSS_20B, Hardware.GB10).weightBytes(w))
                .isEqualTo(expected);
        // the grouped expert GEMMs read MXFP4, the router BF16
        Step gate = Operators.of(Models.GPT_OSS_20B, w).stream()
                .filter(s -> s.name().equals("experts gate_proj"))
                .findFirst()
                .orElseThrow();
        Step router = Operators.of(Models.GPT_OSS_20B, w).stream()
                .filter(s -> s.name().equals("router"))
                .findFirst()
                .orElseThrow();
        assertThat(((GroupedGemm) gate.operator()).weights()).isEqualTo(Precision.MXFP4);
        assertThat(((dev.roofline.core.roofline.Gemm) router.operator()).weights())
                .isEqualTo(Precision.BF16);
        assertThat(w.withWeights(Precision.FP8_E4M3).expertWeights()).isEqualTo(Precision.FP8_E4M3);
        assertThat(w.withBatch(8).expertWeights()).isEqualTo(Precision.MXFP4);
    }
}
