package dev.roofline.core.calibration;

import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Attention;
import dev.roofline.core.roofline.Elementwise;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.GroupedGemm;
import dev.roofline.core.transformer.Operators;
import dev.roofline.core.transformer.Step;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OperatorClassTest {

    private static Map<String, String> keys(dev.roofline.core.model.Model model, Workload w) {
        return Operators.of(model, w).stream()
                .collect(Collectors.toMap(Step::name, s -> OperatorClass.of(s).key()));
    }

    @Test
    void denseDecodeStepsAreGemvsAttentionAndElementwise() {
        assertThat(keys(Models.LLAMA_3_8B, Workload.decode(1, 1024)))
                .containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
                        Map.entry("embedding", "elementwise"),
                        Map.entry("rmsnorm", "elementwise"),
                        Map.entry("q_proj", "gemv FP16"),
                        Map.entry("k_proj", "gemv FP16"),
                        Map.entry("v_proj", "gemv FP16"),
                        Map.entry("rope", "elementwise"),
                        Map.entry("attention", "attention"),
                        Map.entry("o_proj", "gemv FP16"),
                        Map.entry("residual add", "elementwise"),
                        Map.entry("gate_proj", "gemv FP16"),
                        Map.entry("up_proj", "gemv FP16"),
                        Map.entry("silu*up", "elementwise"),
                        Map.entry("down_proj", "gemv FP16"),
                        Map.entry("final norm", "elementwise"),
                        Map.entry("lm_head", "gemv FP16")));
    }

    @Test
    void matrixClassesAreKeyedByTheGemmsOwnWeightPrecision() {
        Map<String, String> k = keys(Models.LLAMA_3_8B, Workload.decode(1, 1024).withWeights(Precision.NVFP4));
        assertThat(k.get("q_proj")).isEqualTo("gemv NVFP4");
        assertThat(k.get("lm_head")).isEqualTo("gemv FP16"); // kept at 16 bits like the embedding table
        assertThat(keys(Models.LLAMA_3_8B, Workload.decode(1, 1024).withWeights(Precision.FP8_E4M3))
                        .get("down_proj"))
                .isEqualTo("gemv FP8_E4M3");
    }

    @Test
    void sixteenActivationRowsAreAGemvSeventeenAGemm() {
        assertThat(keys(Models.LLAMA_3_8B, Workload.decode(16, 1024)).get("q_proj"))
                .isEqualTo("gemv FP16");
        assertThat(keys(Models.LLAMA_3_8B, Workload.decode(17, 1024)).get("q_proj"))
                .isEqualTo("gemm FP16");
        assertThat(keys(Models.LLAMA_3_8B, Workload.prefill(1, 512)).get("o_proj"))
                .isEqualTo("gemm FP16");
        assertThat(OperatorClass.of(Gemm.of(16, 4096, 4096))).isEqualTo(new OperatorClass.Gemv(Precision.FP16));
        assertThat(OperatorClass.of(Gemm.of(17, 4096, 4096))).isEqualTo(new OperatorClass.Gemm(Precision.FP16));
    }

    @Test
    void routedExpertsAreGroupedGemms() {
        Map<String, String> k =
                keys(Models.MIXTRAL_8X7B, Workload.decode(4, 2048).withWeights(Precision.NVFP4));
        assertThat(k.get("experts gate_proj")).isEqualTo("grouped gemm NVFP4");
        assertThat(k.get("experts down_proj")).isEqualTo("grouped gemm NVFP4");
        assertThat(k.get("router")).isEqualTo("gemv NVFP4");
        assertThat(k.get("top-k")).isEqualTo("elementwise");
        assertThat(k.get("experts silu*up")).isEqualTo("elementwise");
    }

    @Test
    void unfusedAttentionIsTwoGemvsOverTheKvCacheAndASoftmax() {
        // 4 query heads per KV head at batch 1: M = 4 rows against the cache, stored in the KV precision
        Map<String, String> k = keys(
                Models.LLAMA_3_8B,
                Workload.decode(1, 1024).withFlashAttention(false).withKvCache(Precision.FP8_E4M3));
        assertThat(k.get("attention QK^T")).isEqualTo("gemv FP8_E4M3");
        assertThat(k.get("attention score*V")).isEqualTo("gemv FP8_E4M3");
        assertThat(k.get("attention softmax")).isEqualTo("elementwise");
    }

    @Test
    void eachOperatorKindHasItsClass() {
        assertThat(OperatorClass.of(Attention.of("a", 8, 4, 4096, 128, 128, Precision.FP16, Precision.FP16)))
                .isSameAs(OperatorClass.ATTENTION);
        assertThat(OperatorClass.of(new Elementwise("e", 1, 1))).isSameAs(OperatorClass.ELEMENTWISE);
        assertThat(OperatorClass.of(
                        new GroupedGemm("g", 2.0, 2, 64, 64, Precision.INT4, Precision.FP16, Precision.FP16)))
                .isEqualTo(new OperatorClass.GroupedGemm(Precision.INT4));
        assertThatThrownBy(() -> OperatorClass.of((Step) null)).hasMessage("step must not be null");
    }

    @Test
    void everyKeyParsesBackToItsClass() {
        List<OperatorClass> all =
                new java.util.ArrayList<>(List.of(OperatorClass.ATTENTION, OperatorClass.ELEMENTWISE));
        for (Precision p : Precision.values()) {
            all.addAll(List.of(new OperatorClass.Gemv(p), new OperatorClass.Gemm(p), new OperatorClass.GroupedGemm(p)));
        }
        for (OperatorClass c : all) {
            assertThat(OperatorClass.parse(c.key())).isEqualTo(c);
        }
        assertThat(all.stream().map(OperatorClass::key).collect(Collectors.toSet()))
                .hasSize(all.size());
        assertThat(new OperatorClass.GroupedGemm(Precision.MXFP4).key()).isEqualTo("grouped gemm MXFP4");
        assertThat(List.of(OperatorClass.ATTENTION, new OperatorClass.Gemv(Precision.NVFP4)))
                .hasToString("[attention, gemv NVFP4]");
    }

    @Test
    void keysAreExactKindsAndPrecisionConstantNames() {
        assertThatThrownBy(() -> OperatorClass.parse("gemv fp16"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "operator class \"gemv fp16\" names no precision: \"fp16\" is not one of [FP64,");
        assertThatThrownBy(() -> OperatorClass.parse("conv FP16"))
                .hasMessageStartingWith("unknown operator class \"conv FP16\"; known: \"gemv <PRECISION>\"");
        assertThatThrownBy(() -> OperatorClass.parse("Attention")).hasMessageContaining("unknown operator class");
        assertThatThrownBy(() -> OperatorClass.parse("gemv")).hasMessageContaining("unknown operator class \"gemv\"");
        assertThatThrownBy(() -> OperatorClass.parse(null)).hasMessage("key must not be null");
        assertThatThrownBy(() -> new OperatorClass.Gemv(null)).hasMessage("weights must not be null");
    }

    @Test
    void attentionClassesMeasuredAtGivenHeadsCarryThemInTheirKeys() {
        OperatorClass.Attention h64 = new OperatorClass.Attention(64);
        assertThat(h64.key()).isEqualTo("attention h64");
        assertThat(OperatorClass.parse("attention h64")).isEqualTo(h64);
        assertThat(OperatorClass.parse("attention h65536")).isEqualTo(new OperatorClass.Attention(65536));
        assertThat(OperatorClass.parse("attention"))
                .isEqualTo(new OperatorClass.Attention())
                .isNotEqualTo(h64);
        for (String bad :
                new String[] {"attention h0", "attention h08", "attention h65537", "attention h", "attention hx"}) {
            assertThatThrownBy(() -> OperatorClass.parse(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("operator class \"" + bad + "\": heads must be 1..65536");
        }
        assertThatThrownBy(() -> OperatorClass.parse("attention b8")).hasMessageContaining("unknown operator class");
        assertThat(h64.plain()).isSameAs(OperatorClass.ATTENTION);
        assertThat(OperatorClass.ATTENTION.plain()).isSameAs(OperatorClass.ATTENTION);
        assertThat(new OperatorClass.Gemv(Precision.NVFP4, 16).plain())
                .isEqualTo(new OperatorClass.Gemv(Precision.NVFP4));
        assertThat(OperatorClass.ELEMENTWISE.plain()).isSameAs(OperatorClass.ELEMENTWISE);
        assertThatThrownBy(() -> new OperatorClass.Attention(-1))
                .hasMessage("attention heads must be 0 (any) or 1..65536, got -1");
    }

    @Test
    void gemvClassesMeasuredAtGivenRowsCarryThemInTheirKeys() {
        OperatorClass.Gemv sixteen = new OperatorClass.Gemv(Precision.NVFP4, 16);
        assertThat(sixteen.key()).isEqualTo("gemv NVFP4 m16");
        assertThat(OperatorClass.parse("gemv NVFP4 m16")).isEqualTo(sixteen);
        assertThat(OperatorClass.parse("gemv FP8_E4M3 m1")).isEqualTo(new OperatorClass.Gemv(Precision.FP8_E4M3, 1));
        assertThat(OperatorClass.parse("gemv FP8_E4M3 m32")).isEqualTo(new OperatorClass.Gemv(Precision.FP8_E4M3, 32));
        assertThat(new OperatorClass.Gemv(Precision.NVFP4)).isEqualTo(new OperatorClass.Gemv(Precision.NVFP4, 0));
        assertThatThrownBy(() -> OperatorClass.parse("gemv NVFP4 m0"))
                .hasMessage("operator class \"gemv NVFP4 m0\": rows must be 1..32 without leading zeros, got 0");
        assertThatThrownBy(() -> OperatorClass.parse("gemv NVFP4 m33"))
                .hasMessage("operator class \"gemv NVFP4 m33\": rows must be 1..32 without leading zeros, got 33");
        assertThatThrownBy(() -> OperatorClass.parse("gemv NVFP4 m05"))
                .hasMessage("operator class \"gemv NVFP4 m05\": rows must be 1..32 without leading zeros, got 05");
        assertThatThrownBy(() -> OperatorClass.parse("gemv NVFP4 m100"))
                .hasMessage("operator class \"gemv NVFP4 m100\": rows must be 1..32 without leading zeros, got 100");
        assertThatThrownBy(() -> OperatorClass.parse("gemv NVFP4 m"))
                .hasMessageStartingWith("operator class \"gemv NVFP4 m\" names no precision");
        assertThatThrownBy(() -> new OperatorClass.Gemv(Precision.FP16, -1))
                .hasMessage("gemv rows must be 0 (any) or 1..32, got -1");
    }
}
