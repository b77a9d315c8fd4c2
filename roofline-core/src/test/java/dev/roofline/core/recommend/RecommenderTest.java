package dev.roofline.core.recommend;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.OperatorTime;
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
    void withoutConstraintEveryWeightFormatIsACandidateAndTheFewestBytesWin() {
        // INT2 and NF4 are weight candidates like any other format: INT2, 2 bits flat, reads the fewest bytes
        ModelRecommendation r = Recommender.on(Hardware.GB10).recommend(Models.LLAMA_3_8B, Workload.decode(1, 4096));
        assertThat(r.roles().getFirst().candidates()).contains(Precision.INT2, Precision.NF4, Precision.INT4_G128);
        Recommendation m = r.model();
        assertThat(m.choice().weights()).isEqualTo(Precision.INT2);
        assertThat(m.method())
                .contains("INT2 weights converted to FP16, FP16 tensor cores")
                .contains("attention: NVFP4 KV cache converted to FP16");
        assertThat(r.excluded()).isEmpty();
    }

    @Test
    void allowInt8OnGb10TakesInt8WeightsAndSaysWhyTheKvCacheStaysFp16() {
        ModelRecommendation r = Recommender.on(Hardware.GB10)
                .withConstraint(AccuracyConstraint.allowing(Precision.INT8))
                .recommend(Models.LLAMA_3_8B, Workload.decode(1, 4096));
        assertThat(r.model().choice()).isEqualTo(new Choice(Precision.INT8, Precision.FP16, Precision.FP16));
        // Bytes of one decode step, every operator memory-bound at 273 GB/s, so the speedup is their ratio:
        //   FP16: linears 2 x 6,979,321,856 + lm_head 128256 x 4096 x 2 = 1,050,673,152 + one embedding row 8,192
        //         + BF16 norms 65 x 4096 x 2 = 532,480 + KV 32 x 2 x 1024 x 4096 x 2 = 536,870,912 = 15,546,728,448
        //   W INT8: linears 6,979,321,856, the rest as FP16 (lm_head and embedding stay 16-bit) = 8,567,406,592
        //   plus the same activation bytes X on both sides: (15.547e9 + X) / (8.567e9 + X) = 1.81
        long x = r.fp16().bytes() - 15_546_728_448L;
        assertThat(x).isBetween(0L, 32 * 400_000L);
        assertThat(r.chosen().bytes()).isEqualTo(8_567_406_592L + x);
        assertThat(r.model().speedupVsFp16()).isCloseTo((15_546_728_448.0 + x) / (8_567_406_592.0 + x), within(1e-9));
        assertThat(r.model().speedupVsFp16()).isCloseTo(1.81, within(0.01));
        // INT8 activations were priced (GB10 multiplies INT8) and lost the 1% tie to 16 bits; KV has no INT8 format
        RoleChoice activations = r.roles().get(1);
        assertThat(activations.candidates()).containsExactly(Precision.FP16, Precision.INT8);
        assertThat(activations.reason()).contains("within 1%");
        RoleChoice kv = r.roles().get(2);
        assertThat(kv.role()).isEqualTo(TensorRole.KV_CACHE);
        assertThat(kv.candidates()).containsExactly(Precision.FP16);
        assertThat(r.excluded())
                .containsExactly(new Exclusion(
                        TensorRole.KV_CACHE,
                        Precision.INT8,
                        "not a KV-cache format: caches are stored in FP16, BF16, FP8 E4M3 or E5M2, or NVFP4"));
    }

    @Test
    void namedFormatsAreCandidatesOrReportedWithTheReason() {
        ModelRecommendation r = Recommender.on(Hardware.H100_SXM)
                .withConstraint(AccuracyConstraint.allowing(Precision.NF4, Precision.INT2, Precision.NVFP4))
                .recommend(Models.LLAMA_3_8B, Workload.decode(1, 4096));
        assertThat(r.roles().getFirst().candidates())
                .containsExactly(Precision.FP16, Precision.INT2, Precision.NVFP4, Precision.NF4);
        assertThat(r.excluded())
                .extracting(Exclusion::label)
                .containsExactly(
                        "INT2 for the activations: no INT2 tensor cores on H100 SXM: quantized activations pay only"
                                + " where the GPU multiplies them natively",
                        "NVFP4 for the activations: no NVFP4 tensor cores on H100 SXM: quantized activations pay"
                                + " only where the GPU multiplies them natively",
                        "NF4 for the activations: a weight-only format: no kernel quantizes activations to it",
                        "INT2 for the KV cache: not a KV-cache format: caches are stored in FP16, BF16, FP8 E4M3 or"
                                + " E5M2, or NVFP4",
                        "NVFP4 for the KV cache: an NVFP4 KV cache needs FP4 tensor cores, which H100 SXM lacks",
                        "NF4 for the KV cache: not a KV-cache format: caches are stored in FP16, BF16, FP8 E4M3 or"
                                + " E5M2, or NVFP4");
    }

    @Test
    void w4a8PrefillOnH100RunsOnInt8TensorCores() {
        // INT4 converts exactly to INT8, so INT4 weights with INT8 activations multiply at H100's INT8 ceiling:
        // 3958 TOPS with sparsity / 2 = 1979 dense, twice the 989.5 TFLOPS of FP16
        ModelRecommendation r = Recommender.on(Hardware.H100_SXM)
                .withConstraints(
                        AccuracyConstraint.allowing(Precision.INT4),
                        AccuracyConstraint.allowing(Precision.INT8),
                        AccuracyConstraint.any())
                .recommend(Models.LLAMA_3_8B, Workload.prefill(1, 4096));
        assertThat(r.model().choice().weights()).isEqualTo(Precision.INT4);
        assertThat(r.model().choice().activations()).isEqualTo(Precision.INT8);
        assertThat(r.model().method()).contains("INT4 weights converted to INT8, INT8 tensor cores");
        // gate_proj: 2 x 4096 tokens x 14336 x 4096 = 4.81e11 FLOP, compute-bound: 243.1 us at 1979 TFLOPS
        OperatorTime gate = r.chosen().operator("gate_proj");
        assertThat(gate.prediction().computePath().executedAs()).isEqualTo(Precision.INT8);
        assertThat(gate.prediction().timeSeconds()).isCloseTo(2.0 * 4096 * 14336 * 4096 / 1979e12, within(1e-12));
        assertThat(r.fp16().operator("gate_proj").prediction().timeSeconds()
                        / gate.prediction().timeSeconds())
                .isCloseTo(1979 / 989.5, within(1e-9));
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
        assertThatThrownBy(() -> Recommender.on(Hardware.GB10).withConstraints(null, null, null))
                .hasMessageContaining("weights must not be null");
    }

    @Test
    void quantizedActivationsWithoutAWeightFormatToPairWithAreReported() {
        // FP16 weights with INT8 activations multiply as FP16, so INT8 activations are never priced
        ModelRecommendation r = Recommender.on(Hardware.H100_SXM)
                .withConstraints(
                        AccuracyConstraint.allowing(Precision.FP16),
                        AccuracyConstraint.allowing(Precision.INT8),
                        AccuracyConstraint.any())
                .recommend(Models.LLAMA_3_8B, Workload.prefill(1, 1024));
        RoleChoice activations = r.roles().get(1);
        assertThat(activations.candidates()).containsExactly(Precision.FP16, Precision.INT8);
        assertThat(activations.chosen()).isEqualTo(Precision.FP16);
        assertThat(activations.reason())
                .endsWith("Not priced: INT8, since no allowed weight format is multiplied in it on H100 SXM.");
    }
}
