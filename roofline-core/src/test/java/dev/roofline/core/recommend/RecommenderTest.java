package dev.roofline.core.recommend;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class RecommenderTest {

    @Test
    void memoryBoundDecodeOnGb10TakesFourBitWeightsAndKeeps16BitActivations() {
        ModelRecommendation r = Recommender.on(Hardware.GB10)
                .withConstraint(AccuracyConstraint.allowing(Precision.FP16, Precision.FP8_E4M3, Precision.NVFP4))
                .recommend(Models.LLAMA_3_8B, Workload.decode(1, 4096));
        Recommendation m = r.model();
        assertThat(m.choice().weights()).isEqualTo(Precision.NVFP4);
        assertThat(m.choice().kvCache()).isEqualTo(Precision.NVFP4); // the 4096-token cache is 11% of FP16 bytes
        // 4-bit activations would save well under 1% of the bytes: the 16-bit ones win the tie
        assertThat(m.choice().activations()).isEqualTo(Precision.FP16);
        // every operator is memory-bound on both sides, so the speedup is the byte ratio
        assertThat(m.speedupVsFp16())
                .isCloseTo((double) r.fp16().bytes() / r.chosen().bytes(), within(1e-9));
        assertThat(m.speedupVsFp16()).isGreaterThan(3);
        assertThat(m.reason())
                .contains("Decode at batch 1")
                .contains("memory-bound")
                .endsWith(".");
        assertThat(m.method()).contains("NVFP4");
        assertThat(r.ranked().getFirst().speedupVsFp16()).isGreaterThanOrEqualTo(m.speedupVsFp16());
    }

    @Test
    void withoutConstraintTheFewestBytesWinAndInt4CarriesNoScales() {
        // the catalog's INT4 is 4 bits flat (no group scales), NVFP4 is 4.5 bits: INT4 weights, dequantized to FP16
        Recommendation m = Recommender.on(Hardware.GB10)
                .recommend(Models.LLAMA_3_8B, Workload.decode(1, 4096))
                .model();
        assertThat(m.choice().weights()).isEqualTo(Precision.INT4);
        assertThat(m.method())
                .contains("INT4 weights converted to FP16, FP16 tensor cores")
                .contains("attention: NVFP4 KV cache converted to FP16");
    }

    @Test
    void allowedFormatsLimitTheChoice() {
        Recommender rec = Recommender.on(Hardware.H100_SXM)
                .withConstraint(AccuracyConstraint.allowing(Precision.FP16, Precision.FP8_E4M3));
        Recommendation m =
                rec.recommend(Models.LLAMA_3_8B, Workload.decode(1, 4096)).model();
        assertThat(m.choice().weights()).isEqualTo(Precision.FP8_E4M3);
        assertThat(rec.candidates()).allSatisfy(c -> assertThat(c.weights()).isIn(Precision.FP16, Precision.FP8_E4M3));
    }

    @Test
    void minimumSqnrExcludesFormatsBelowItOrUnmeasured() {
        AccuracyConstraint c =
                AccuracyConstraint.minimumSqnr(25, Map.of(Precision.NVFP4, 20.0, Precision.FP8_E4M3, 31.0));
        assertThat(c.allows(Precision.NVFP4)).isFalse();
        assertThat(c.allows(Precision.FP8_E4M3)).isTrue();
        assertThat(c.allows(Precision.INT4)).isFalse();
        assertThat(c.allows(Precision.BF16)).isTrue();
        Recommendation m = Recommender.on(Hardware.GB10)
                .withConstraint(c)
                .recommend(Models.LLAMA_3_8B, Workload.decode(1, 4096))
                .model();
        assertThat(m.choice().weights()).isEqualTo(Precision.FP8_E4M3);
    }

    @Test
    void computeBoundPrefillOnH100TakesNativeFp8() {
        ModelRecommendation r = Recommender.on(Hardware.H100_SXM)
                .withConstraint(AccuracyConstraint.allowing(Precision.FP16, Precision.FP8_E4M3, Precision.INT4))
                .recommend(Models.LLAMA_3_8B, Workload.prefill(8, 4096));
        assertThat(r.model().choice().weights()).isEqualTo(Precision.FP8_E4M3);
        assertThat(r.model().choice().activations()).isEqualTo(Precision.FP8_E4M3);
        assertThat(r.model().speedupVsFp16()).isBetween(1.5, 2.0);
        assertThat(r.model().reason()).contains("compute-bound").contains("FP8 E4M3 tensor-core ceiling");
        Recommendation gate = r.operators().stream()
                .filter(o -> o.subject().equals("gate_proj"))
                .findFirst()
                .orElseThrow();
        assertThat(gate.speedupVsFp16()).isCloseTo(1979.0 / 989.5, within(1e-9));
        assertThat(gate.reason()).startsWith("Compute-bound").contains("1979 vs 990 TFLOPS");
    }

    @Test
    void a100HasNoFp8OrNvfp4PathsSoOnlyWeightOnlyCandidates() {
        Recommender rec = Recommender.on(Hardware.A100_SXM_80GB);
        assertThat(rec.candidates())
                .noneMatch(c -> c.activations() == Precision.FP8_E4M3 || c.kvCache() == Precision.NVFP4);
        Recommendation m =
                rec.recommend(Models.LLAMA_3_8B, Workload.decode(1, 1024)).model();
        assertThat(m.choice().activations()).isEqualTo(Precision.FP16);
        assertThat(m.method()).contains("converted to FP16");
    }

    @Test
    void everyOperatorGetsAReason() {
        ModelRecommendation r = Recommender.on(Hardware.GB10).recommend(Models.MIXTRAL_8X7B, Workload.decode(4, 2048));
        assertThat(r.operators()).hasSameSizeAs(r.fp16().operators());
        assertThat(r.operators()).allSatisfy(o -> {
            assertThat(o.reason()).endsWith(".");
            assertThat(o.speedupVsFp16()).isGreaterThan(0.99);
        });
    }

    @Test
    void misuseIsRefused() {
        assertThatThrownBy(AccuracyConstraint::allowing).hasMessageContaining("at least one precision");
        assertThatThrownBy(() -> AccuracyConstraint.minimumSqnr(Double.NaN, Map.of()))
                .hasMessageContaining("minimumDb must be finite, got NaN");
        assertThatThrownBy(() -> Recommender.on(Hardware.GB10).recommend(null, Workload.decode(1, 1)))
                .hasMessageContaining("model must not be null");
    }
}
