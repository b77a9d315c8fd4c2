package dev.roofline.cuda.bench;

import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.cuda.decode.DecoderOperator;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class DecodeStepChartTest {
    private static final double[][] PROFILE = {
        {1, 130}, {500, 600}, {0.2, 64}, {40, 208}, {300, 364}, {2000, 2064}, {1, 64}, {1000, 1064}, {300, 402}
    };

    @Test
    void aFusedKernelsTimeIsSharedAmongItsModelOperatorsByTheirPredictions() {
        DecodeStepResult r = ProfiledSteps.llama3Fp16(PROFILE);
        ModelPrediction p = r.predicted();
        Map<String, Double> s = DecodeStepChart.measuredSeconds(r);
        // q_proj, k_proj, v_proj share the merged product's 600 us in proportion to their predicted times
        double q = p.operator("q_proj").timeSeconds();
        double k = p.operator("k_proj").timeSeconds();
        double v = p.operator("v_proj").timeSeconds();
        assertThat(s.get("q_proj")).isCloseTo(600e-6 * q / (q + k + v), within(1e-12));
        assertThat(s.get("q_proj") + s.get("k_proj") + s.get("v_proj")).isCloseTo(600e-6, within(1e-12));
        assertThat(s.get("lm_head")).isCloseTo(402e-6, within(1e-12));
        assertThat(s).doesNotContainKey("embedding");
    }

    @Test
    void anOperatorRunInsideAnothersKernelGetsNoMarkerOfItsOwn() {
        // RoPE in the q/k/v product: no launch, no time of its own; the chart still draws the step
        double[][] fused = PROFILE.clone();
        fused[DecoderOperator.ROPE_APPEND.ordinal()] = new double[] {0.2, 0};
        DecodeStepResult r = ProfiledSteps.llama3Fp16(fused, true, true, 1);
        Map<String, Double> s = DecodeStepChart.measuredSeconds(r);
        assertThat(DecoderOperator.ROPE_APPEND.modelOperators()).isNotEmpty();
        assertThat(s)
                .doesNotContainKeys(DecoderOperator.ROPE_APPEND.modelOperators().toArray(String[]::new));
        assertThat(s.get("q_proj") + s.get("k_proj") + s.get("v_proj")).isCloseTo(600e-6, within(1e-12));
        assertThat(DecodeStepChart.svg(r)).startsWith("<svg").contains("q_proj");
    }

    @Test
    void theSvgDrawsEachMeasuredOperatorHollow() {
        String svg = DecodeStepChart.svg(ProfiledSteps.llama3Fp16(PROFILE));
        assertThat(svg)
                .startsWith("<svg")
                .contains("fill=\"none\"")
                .contains("q_proj")
                .contains("down_proj");
    }

    @Test
    void nvfp4WeightsOnAGpuWithoutAnNvfp4CeilingAreDrawnAgainstFp16() {
        DecodeStepResult fp16 = ProfiledSteps.llama3Fp16(PROFILE);
        DecodeStepResult nvfp4 = withConfig(
                fp16,
                new DecodeStepBenchmark.Config(
                        dev.roofline.cuda.kernels.WeightFormat.NVFP4,
                        1,
                        1024,
                        fp16.config().launch()));
        assertThat(DecodeStepChart.svg(nvfp4)).contains("FP16").doesNotContain("NVFP4 ceiling");
    }

    @Test
    void theFileAndTitlesNameAKvCacheOtherThanFp16() {
        DecodeStepResult fp16 = ProfiledSteps.llama3Fp16(PROFILE);
        DecodeStepResult fp8Kv = withConfig(
                fp16,
                new DecodeStepBenchmark.Config(
                        dev.roofline.cuda.kernels.WeightFormat.FP16,
                        dev.roofline.cuda.kernels.KvCacheFormat.of(dev.roofline.core.precision.Precision.FP8_E4M3),
                        8,
                        4096,
                        fp16.config().launch()));
        assertThat(DecodeStepChart.fileName(fp16)).isEqualTo("decode-fp16-b1-c1024-programmatic.svg");
        assertThat(DecodeStepChart.fileName(fp8Kv)).isEqualTo("decode-fp16-kvfp8e4m3-b8-c4096-programmatic.svg");
        assertThat(DecodeStepReport.shortTitle(fp8Kv)).isEqualTo("FP16 KV FP8 E4M3 B8 C4096 programmatic");
        assertThat(DecodeStepReport.title(fp8Kv)).contains("FP16 weights, FP8 E4M3 KV, batch 8, context 4096");
        assertThat(DecodeStepReport.title(fp16)).contains("FP16 weights, FP16 KV, batch 1, context 1024");
    }

    @Test
    void aStepWithoutAProfileHasNoChart() {
        assertThatThrownBy(() -> DecodeStepChart.svg(ProfiledSteps.llama3Fp16(new double[0][])))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("profiled");
    }

    /** {@code r}'s measurements and predictions under another configuration's name. */
    private static DecodeStepResult withConfig(DecodeStepResult r, DecodeStepBenchmark.Config config) {
        return new DecodeStepResult(
                r.model(),
                config,
                r.seconds(),
                r.predicted(),
                r.datasheet(),
                1,
                1,
                r.operators(),
                java.util.Optional.empty(),
                null);
    }
}
