package dev.roofline.cuda.bench;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.calibration.LaunchPlan;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.model.Model;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import dev.roofline.cuda.decode.DecoderOperator;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** {@link DecodeCalibration#fit} on a profile whose operator times are chosen so the fit can be done by hand. */
class DecodeCalibrationTest {
    private static final LocalDate DAY = LocalDate.of(2026, 11, 24);
    private static final DeviceCeilings CEILINGS =
            new DeviceCeilings("H200", DAY, 4.3e12, 1.7e-6, "test copy", Map.of(), "none", Map.of());

    @Test
    void launchCostComesFromTheElementwiseKernelsAndEachClassFromItsOperators() {
        // elementwise: 65 + 32 + 32 = 129 launches in 130 + 64 + 64 = 258 us: 2 us a launch
        // attention: 64 launches, roofline 40 us, measured 208 us: (208 - 128) = 80 us of work, efficiency 40/80 = 0.5
        // gemv FP16: qkv, o, gate_up, down (32 launches each) and lm_head (1): roofline 500 + 300 + 2000 + 1000 + 300
        // = 4100 us; measured less launches (564 - 64) + (364 - 64) + (2064 - 64) + (1064 - 64) + (402 - 2) = 4200 us
        DecodeStepResult r = ProfiledSteps.llama3Fp16(new double[][] {
            {1, 130}, {500, 564}, {0.2, 64}, {40, 208}, {300, 364}, {2000, 2064}, {1, 64}, {1000, 1064}, {300, 402}
        });
        Calibration c = DecodeCalibration.fit(List.of(r), CEILINGS, "H200", DAY, "test");
        assertThat(c.launchSeconds()).isCloseTo(2e-6, within(1e-15));
        assertThat(c.efficiency(OperatorClass.ATTENTION)).isCloseTo(0.5, within(1e-12));
        assertThat(c.efficiency(new OperatorClass.Gemv(Precision.FP16))).isCloseTo(4100.0 / 4200, within(1e-12));
        assertThat(c.efficiency(OperatorClass.ELEMENTWISE)).isEqualTo(1.0);
        assertThat(c.kernelsPerLayer()).isEqualTo(10);
        assertThat(c.kernelsPerModel()).isEqualTo(2);
        assertThat(c.copyBytesPerSecond()).isEqualTo(4.3e12);
        assertThat(c.provenance().device()).isEqualTo("H200");
    }

    @Test
    void aSecondAttentionPointSplitsItsTimeIntoAFixedPartAndAnEfficiency() {
        // at 1k: 208 us measured, 64 launches x 2 us = 128, so 80 us of work for 40 us of roofline
        // at 16k: roofline 640 us, measured 1008 us: 880 us of work; the line through both: slope 800 / 600 work per
        // roofline time, efficiency 600 / 800 = 0.75; intercept 80 - 40 / 0.75 = 26.667 us over 32 layers = 0.8333 us
        DecodeStepResult r = ProfiledSteps.llama3Fp16(new double[][] {
            {1, 130}, {500, 564}, {0.2, 64}, {40, 208}, {300, 364}, {2000, 2064}, {1, 64}, {1000, 1064}, {300, 402}
        });
        Calibration c = DecodeCalibration.fit(
                List.of(r), new DecodeCalibration.AttentionPoint(16384, 1008e-6, 640e-6), CEILINGS, "H200", DAY, "t");
        assertThat(c.efficiency(OperatorClass.ATTENTION)).isCloseTo(0.75, within(1e-12));
        assertThat(c.fixedSecondsOf(OperatorClass.ATTENTION)).isCloseTo(26.6667e-6 / 32, within(1e-11));
        assertThat(c.efficiency(new OperatorClass.Gemv(Precision.FP16))).isCloseTo(4100.0 / 4200, within(1e-12));
    }

    @Test
    void attentionTimedAloneAtMoreSequencesGetsTheClassOfItsHeadsFromItsTwoPoints() {
        DecodeStepResult r = ProfiledSteps.llama3Fp16(new double[][] {
            {1, 130}, {500, 564}, {0.2, 64}, {40, 208}, {300, 364}, {2000, 2064}, {1, 64}, {1000, 1064}, {300, 402}
        });
        Calibration one = DecodeCalibration.fit(
                List.of(r), new DecodeCalibration.AttentionPoint(16384, 1008e-6, 640e-6), CEILINGS, "H200", DAY, "t");
        // 8 sequences, 64 launches of 2 us: at 2k 768 us measured, 640 us of work for 500 us of roofline; at 16k
        // 4128 us, 4000 us of work for 4000 us of roofline. Slope: 3360 us of work for 3500 us of roofline, efficiency
        // 3500 / 3360 = 1.0417; intercept 640 - 500 / 1.0417 = 160 us over 32 layers = 5 us a layer
        Calibration c = DecodeCalibration.withAttentionAt(
                one,
                List.of(new DecodeCalibration.AttentionAtBatch(
                        8,
                        new DecodeCalibration.AttentionPoint(2048, 768e-6, 500e-6),
                        new DecodeCalibration.AttentionPoint(16384, 4128e-6, 4000e-6))),
                8,
                64,
                32);
        OperatorClass b8 = new OperatorClass.Attention(64); // 8 sequences of 8 KV heads
        assertThat(c.efficiency(b8)).isCloseTo(3500.0 / 3360, within(1e-12));
        assertThat(c.fixedSecondsOf(b8)).isCloseTo(5e-6, within(1e-12));
        // the one-sequence attention and everything else unchanged
        assertThat(c.efficiency(OperatorClass.ATTENTION)).isEqualTo(one.efficiency(OperatorClass.ATTENTION));
        assertThat(c.fixedSecondsOf(OperatorClass.ATTENTION)).isEqualTo(one.fixedSecondsOf(OperatorClass.ATTENTION));
        assertThat(c.launchSeconds()).isEqualTo(one.launchSeconds());
        assertThat(c.efficiencies()).hasSize(one.efficiencies().size() + 1);
        // a far point that reads no more is refused; so is an empty batch
        assertThatThrownBy(() -> DecodeCalibration.withAttentionAt(
                        one,
                        List.of(new DecodeCalibration.AttentionAtBatch(
                                8,
                                new DecodeCalibration.AttentionPoint(2048, 768e-6, 500e-6),
                                new DecodeCalibration.AttentionPoint(16384, 700e-6, 4000e-6))),
                        8,
                        64,
                        32))
                .hasMessageContaining("must read more and take longer");
        DecodeCalibration.AttentionAtBatch eight = new DecodeCalibration.AttentionAtBatch(
                8,
                new DecodeCalibration.AttentionPoint(2048, 768e-6, 500e-6),
                new DecodeCalibration.AttentionPoint(16384, 4128e-6, 4000e-6));
        assertThatThrownBy(() -> DecodeCalibration.withAttentionAt(one, List.of(eight), 0, 64, 32))
                .hasMessage("attention at more sequences needs kvHeads >= 1, launchesPerStep >= 0 and layers >= 1,"
                        + " got 0, 64, 32");
        assertThatThrownBy(() -> DecodeCalibration.withAttentionAt(one, List.of(eight, eight), 8, 64, 32))
                .hasMessageStartingWith("attention points name a number of sequences twice");
        assertThatThrownBy(() -> new DecodeCalibration.AttentionAtBatch(
                        0,
                        new DecodeCalibration.AttentionPoint(2048, 768e-6, 500e-6),
                        new DecodeCalibration.AttentionPoint(16384, 4128e-6, 4000e-6)))
                .hasMessageStartingWith("attention at a batch needs sequences >= 1");
    }

    @Test
    void theLaunchFloorChargesEachLaunchAtLeastTheElementwiseOperatorsCost() {
        DecodeStepResult r = ProfiledSteps.llama3Fp16(new double[][] {
            {1, 130}, {500, 564}, {0.2, 64}, {40, 208}, {300, 364}, {2000, 2064}, {1, 64}, {1000, 1064}, {300, 402}
        });
        // launch: (130 + 64 + 64) us over 65 + 32 + 32 launches = 2 us. Per operator, launches x max(roofline /
        // launches, 2 us): norms 65 x 2 = 130, qkv 500, rope 32 x 2 = 64, attention 64 x max(0.625, 2) = 128, o 300,
        // gate_up 2000, silu 64, down 1000, lm_head 300: 4486 us, of a 5000 us step 89.72 %
        assertThat(DecodeCalibration.launchSeconds(List.of(r))).isCloseTo(2e-6, within(1e-15));
        assertThat(r.launchFloorSeconds()).isCloseTo(4486e-6, within(1e-12));
        assertThat(r.toString()).contains("floor with 2.00 us a launch 4486.0 us, 89.7 % of it");
        DecodeStepResult unprofiled = ProfiledSteps.llama3Fp16(new double[0][]);
        assertThat(unprofiled.launchFloorSeconds()).isNaN();
        assertThat(unprofiled.toString()).doesNotContain("floor");
    }

    @Test
    void aSecondAttentionPointThatReadsLessIsRefused() {
        DecodeStepResult r = ProfiledSteps.llama3Fp16(new double[][] {
            {1, 130}, {500, 564}, {0.2, 64}, {40, 208}, {300, 364}, {2000, 2064}, {1, 64}, {1000, 1064}, {300, 402}
        });
        assertThatThrownBy(() -> DecodeCalibration.fit(
                        List.of(r),
                        new DecodeCalibration.AttentionPoint(512, 150e-6, 20e-6),
                        CEILINGS,
                        "H200",
                        DAY,
                        "t"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must read more and take longer");
    }

    @Test
    void aClassFasterThanItsLaunchesIsCappedAtTheLargestEfficiency() {
        // attention measured at 100 us for 64 launches of 2 us: nothing left for its bytes
        DecodeStepResult r = ProfiledSteps.llama3Fp16(new double[][] {
            {1, 130}, {500, 564}, {0.2, 64}, {40, 100}, {300, 364}, {2000, 2064}, {1, 64}, {1000, 1064}, {300, 402}
        });
        Calibration c = DecodeCalibration.fit(List.of(r), CEILINGS, "H200", DAY, "test");
        assertThat(c.efficiency(OperatorClass.ATTENTION)).isEqualTo(Calibration.MAX_EFFICIENCY);
    }

    @Test
    void kernelsPerLayerAreThoseTheProfiledStepLaunched() {
        // norms in the products' epilogues: 1 norm launch, so 1 + 32 x 7 + 32 (attention's second) + 1 = 258 kernels,
        // 2 per model (lm_head, layer 0's norm) and (258 - 2) / 32 = 8 per layer
        DecodeStepResult r = ProfiledSteps.llama3Fp16(fusedNormsMicros(64), true);
        assertThat(r.launches()).isEqualTo(258);
        Calibration c = DecodeCalibration.fit(List.of(r), CEILINGS, "H200", DAY, "test");
        assertThat(c.kernelsPerLayer()).isEqualTo(8);
        assertThat(c.kernelsPerModel()).isEqualTo(2);
    }

    @Test
    void ropeInTheQkvProductLeavesSevenKernelsALayerAndNoLaunchToPrice() {
        // RoPE in the q/k/v product too: 1 + 32 x 6 + 32 + 1 = 226 kernels, (226 - 2) / 32 = 7 per layer; a launch
        // costs what the elementwise operators that launch took: (2 us of norm + 64 us of SiLU) / 33 launches = 2 us
        DecodeStepResult r = ProfiledSteps.llama3Fp16(fusedNormsMicros(0), true, true, 1);
        assertThat(r.launches()).isEqualTo(226);
        assertThat(DecodeCalibration.launchSeconds(List.of(r))).isCloseTo(2e-6, within(1e-15));
        Calibration c = DecodeCalibration.fit(List.of(r), CEILINGS, "H200", DAY, "test");
        assertThat(c.kernelsPerLayer()).isEqualTo(7);
        assertThat(c.kernelsPerModel()).isEqualTo(2);
        // the engine's plans beside it, counted by hand from DenseDecoder's operators: dense FP16 and FP8 at batch 1
        // 7 + 2 (above); elsewhere 2 norms, qkv, rope, 2 attention, o, gate/up, silu, down = 10 a layer, final norm and
        // lm_head; with experts the MLP's 3 become router, top-k, gate/up, silu, down, combine (13), less RoPE at FP16
        // and FP8 batch 1 (their norms stay): 12
        assertThat(c.plans())
                .containsExactly(
                        new LaunchPlan(Precision.FP16, 1, false, 7, 2),
                        new LaunchPlan(Precision.FP8_E4M3, 1, false, 7, 2),
                        new LaunchPlan(null, Integer.MAX_VALUE, false, 10, 2),
                        new LaunchPlan(Precision.FP16, 1, true, 12, 2),
                        new LaunchPlan(Precision.FP8_E4M3, 1, true, 12, 2),
                        new LaunchPlan(null, Integer.MAX_VALUE, true, 13, 2));
        // priced elsewhere with the engine's launches there: an FP8 step of Llama-3-8B at batch 1 launches the
        // calibration's own 226 kernels, at batch 8 322
        Model llama = r.predicted().model();
        Workload fp8 = r.datasheet().workload().withWeights(Precision.FP8_E4M3);
        assertThat(c.launches(llama, fp8)).isEqualTo(226);
        assertThat(c.launches(llama, fp8.withBatch(8))).isEqualTo(322);
        assertThat(c.launches(llama, r.datasheet().workload())).isEqualTo(226);
        fp8 = fp8.withBatch(8);
        assertThat(DecodeCalibration.stepSeconds(c, llama, r.datasheet().hardware(), fp8, 322))
                .isCloseTo(
                        c.predict(Transformer.of(llama, r.datasheet().hardware()), fp8)
                                        .timeSeconds()
                                - c.predict(Transformer.of(llama, r.datasheet().hardware()), fp8)
                                        .calibrated()
                                        .operator("embedding")
                                        .timeSeconds(),
                        within(1e-15));
        // the report shows the fused operator with no launch and no measured time, and counts 226 launches
        List<DecodeStepReport.Row> rows = DecodeStepReport.rows(r);
        DecodeStepReport.Row rope = rows.get(DecoderOperator.ROPE_APPEND.ordinal());
        assertThat(rope.operator()).isEqualTo(DecoderOperator.ROPE_APPEND.label());
        assertThat(rope.launches()).isZero();
        assertThat(rope.measuredSeconds()).isNaN();
        assertThat(rope.errorPercent()).isNull();
        assertThat(rows.get(rows.size() - 2).launches()).as("sum of operators").isEqualTo(226);
    }

    /** {roofline us, measured us} per operator of a step with fused norms, RoPE + append measured at {@code rope} us. */
    private static double[][] fusedNormsMicros(double rope) {
        return new double[][] {
            {1, 2}, {500, 564}, {0.2, rope}, {40, 208}, {300, 364}, {2000, 2064}, {1, 64}, {1000, 1064}, {300, 402}
        };
    }

    @Test
    void aHeldOutStepIsPricedWithTheLaunchesItMade() {
        // the same step launching 322 kernels instead of 258: 64 launches of 2 us more in its calibrated prediction
        double[][] micros = {
            {1, 130}, {500, 564}, {0.2, 64}, {40, 208}, {300, 364}, {2000, 2064}, {1, 64}, {1000, 1064}, {300, 402}
        };
        DecodeStepResult unfused = ProfiledSteps.llama3Fp16(micros);
        Calibration c = DecodeCalibration.fit(List.of(unfused), CEILINGS, "H200", DAY, "test");
        DecodeStepResult fused = new DecodeStepResult(
                unfused.model(),
                unfused.config(),
                unfused.seconds(),
                unfused.predicted(),
                unfused.datasheet(),
                unfused.weightBytes(),
                unfused.kvBytes(),
                List.of(),
                java.util.Optional.empty(),
                null,
                Double.NaN,
                258,
                Double.NaN);
        List<DecodeCalibration.Check> checks =
                DecodeCalibration.check(unfused.predicted().model(), c, List.of(unfused, fused), List.of(unfused));
        assertThat(unfused.launches()).isEqualTo(322);
        assertThat(checks.get(0).calibratedSeconds() - checks.get(1).calibratedSeconds())
                .isCloseTo(64 * 2e-6, within(1e-12));
        assertThat(checks.get(0).calibrationPoint()).isTrue();
        assertThat(checks.get(1).calibrationPoint()).isFalse();
    }

    @Test
    void aStepWithoutAProfileIsRefusedByName() {
        DecodeStepResult r = ProfiledSteps.llama3Fp16(new double[0][]);
        assertThatThrownBy(() -> DecodeCalibration.fit(List.of(r), CEILINGS, "H200", DAY, "test"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FP16 weights, FP16 KV, batch 1, context 1024")
                .hasMessageContaining("not profiled");
        assertThatThrownBy(() -> DecodeCalibration.fit(List.of(), CEILINGS, "H200", DAY, "test"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one profiled decode step");
    }
}
