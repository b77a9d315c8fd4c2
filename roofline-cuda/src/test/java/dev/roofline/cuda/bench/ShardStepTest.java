package dev.roofline.cuda.bench;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The shard's product classes fitted to its profiled steps, by hand. */
class ShardStepTest {
    // {roofline us, measured us} per operator in DecoderOperator order: norm, qkv, rope, attention, o, gate/up, silu,
    // down, lm_head; the products (qkv, o, gate/up, down: 32 launches each, lm_head: 1) have 4100 us of roofline
    private static final double[][] PROFILE = {
        {1, 130}, {500, 564}, {0.2, 64}, {40, 208}, {300, 364}, {2000, 2064}, {1, 64}, {1000, 1064}, {300, 402}
    };
    // the same products 700 us slower: qkv, o, down and lm_head 100 us each, gate/up 300
    private static final double[][] SLOWER = {
        {1, 130}, {500, 664}, {0.2, 64}, {40, 208}, {300, 464}, {2000, 2364}, {1, 64}, {1000, 1164}, {300, 502}
    };
    private static final OperatorClass GEMV_FP16 = new OperatorClass.Gemv(Precision.FP16);

    /** A whole-model calibration: 0.9 for FP16's products at any rows, 0.5 at 8 rows, launches at 2 us. */
    private static Calibration whole() {
        return new Calibration(
                new Calibration.Provenance("H200", LocalDate.of(2026, 11, 26), "test"),
                4.3e12,
                2e-6,
                10,
                2,
                Map.of(GEMV_FP16, 0.9, new OperatorClass.Gemv(Precision.FP16, 8), 0.5, OperatorClass.ATTENTION, 0.8));
    }

    @Test
    void theProductsTimesAreTheirRooflineAndTheirTimeLessTheirLaunches() {
        DecodeStepResult r = ProfiledSteps.llama3Fp16(PROFILE);
        // at 2 us a launch: 500 + 300 + 2000 + 1000 + 400 = 4200 us of work
        double[] t = ShardStep.productTimes(r, 2e-6);
        assertThat(t[0]).isCloseTo(4100e-6, within(1e-12));
        assertThat(t[1]).isCloseTo(4200e-6, within(1e-12));
        // at 1 us: 532 + 332 + 2032 + 1032 + 401 = 4329 us
        assertThat(ShardStep.productTimes(r, 1e-6)[1]).isCloseTo(4329e-6, within(1e-12));
    }

    @Test
    void eachBatchGetsTheClassItsRowsArePricedWithAndTheRestOfTheCalibrationStays() {
        Calibration c = ShardStep.fit(
                whole(),
                List.of(ProfiledSteps.llama3Fp16(PROFILE, false, 1), ProfiledSteps.llama3Fp16(SLOWER, false, 8)));
        // one row: 4100 / 4200; eight rows: 4100 / 4900 in place of the whole model's 0.5
        assertThat(c.efficiency(new OperatorClass.Gemv(Precision.FP16, 1))).isCloseTo(4100.0 / 4200, within(1e-12));
        assertThat(c.efficiency(new OperatorClass.Gemv(Precision.FP16, 8))).isCloseTo(4100.0 / 4900, within(1e-12));
        assertThat(c.efficiency(GEMV_FP16)).isEqualTo(0.9);
        assertThat(c.efficiency(OperatorClass.ATTENTION)).isEqualTo(0.8);
        assertThat(c.launchSeconds()).isEqualTo(2e-6);
    }

    @Test
    void batchesAboveTheMeasuredRowsShareTheirClassAsOneRatioOfSums() {
        DecodeStepResult b64 = ProfiledSteps.llama3Fp16(PROFILE, false, 64);
        OperatorClass gemm = ShardStep.productClass(WeightFormat.FP16, 64, b64);
        assertThat(gemm)
                .isEqualTo(
                        DecodeCalibration.classOf(b64.predicted(), dev.roofline.cuda.decode.DecoderOperator.QKV_PROJ));
        assertThat(gemm).isNotInstanceOf(OperatorClass.Gemv.class);
        Calibration c = ShardStep.fit(whole(), List.of(b64, ProfiledSteps.llama3Fp16(SLOWER, false, 128)));
        // (4100 + 4100) / (4200 + 4900), not the last batch's 4100 / 4900
        assertThat(c.efficiency(gemm)).isCloseTo(8200.0 / 9100, within(1e-12));
        assertThat(ShardStep.productClass(WeightFormat.NVFP4, 32, b64))
                .isEqualTo(new OperatorClass.Gemv(Precision.NVFP4, 32));
    }

    @Test
    void productsNoSlowerThanTheirLaunchesAreCappedAtTheLargestEfficiency() {
        Calibration fast = new Calibration(
                new Calibration.Provenance("H200", LocalDate.of(2026, 11, 26), "test"), 4.3e12, 40e-6, 10, 2, Map.of());
        // 4 x 32 + 1 launches at 40 us: more than the 4494 us measured
        Calibration c = ShardStep.fit(fast, List.of(ProfiledSteps.llama3Fp16(PROFILE)));
        assertThat(c.efficiency(new OperatorClass.Gemv(Precision.FP16, 1))).isEqualTo(Calibration.MAX_EFFICIENCY);
    }

    @Test
    void aStepWithoutAProfileIsRefusedByName() {
        assertThatThrownBy(() -> ShardStep.fit(whole(), List.of(ProfiledSteps.llama3Fp16(new double[0][]))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Llama-3-8B")
                .hasMessageContaining("not profiled");
    }
}
