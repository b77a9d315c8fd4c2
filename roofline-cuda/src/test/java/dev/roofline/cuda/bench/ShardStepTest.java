package dev.roofline.cuda.bench;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The shard's GEMV efficiency from its profiled step, and the ratios that put it into a calibration, by hand. */
class ShardStepTest {
    // {roofline us, measured us} per operator in DecoderOperator order: norm, qkv, rope, attention, o, gate/up, silu,
    // down, lm_head; the products (qkv, o, gate/up, down: 32 launches each, lm_head: 1) have 4100 us of roofline
    private static final double[][] PROFILE = {
        {1, 130}, {500, 564}, {0.2, 64}, {40, 208}, {300, 364}, {2000, 2064}, {1, 64}, {1000, 1064}, {300, 402}
    };

    @Test
    void theEfficiencyIsTheProductsRooflineOverTheirTimeLessTheirLaunches() {
        DecodeStepResult r = ProfiledSteps.llama3Fp16(PROFILE);
        // at 2 us a launch: 500 + 300 + 2000 + 1000 + 400 = 4200 us of work
        assertThat(ShardStep.gemvEfficiency(r, WeightFormat.FP16, 2e-6)).isCloseTo(4100.0 / 4200, within(1e-12));
        // at 1 us: 532 + 332 + 2032 + 1032 + 401 = 4329 us
        assertThat(ShardStep.gemvEfficiency(r, WeightFormat.FP16, 1e-6)).isCloseTo(4100.0 / 4329, within(1e-12));
    }

    @Test
    void productsNoSlowerThanTheirLaunchesAreCappedAtTheLargestEfficiency() {
        DecodeStepResult r = ProfiledSteps.llama3Fp16(PROFILE);
        // 4 x 32 + 1 launches at 40 us: more than the 4494 us measured
        assertThat(ShardStep.gemvEfficiency(r, WeightFormat.FP16, 40e-6)).isEqualTo(Calibration.MAX_EFFICIENCY);
    }

    @Test
    void aStepWithoutAProfileOrWithoutTheFormatsProductsIsRefusedByName() {
        assertThatThrownBy(() ->
                        ShardStep.gemvEfficiency(ProfiledSteps.llama3Fp16(new double[0][]), WeightFormat.FP16, 1e-6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Llama-3-8B")
                .hasMessageContaining("not profiled");
        assertThatThrownBy(() -> ShardStep.gemvEfficiency(ProfiledSteps.llama3Fp16(PROFILE), WeightFormat.NVFP4, 1e-6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ran no gemv NVFP4 product");
    }

    @Test
    void theShardsEfficiencyReplacesTheCalibrationsAtOneRowAndScalesByItsOwnRowRatios() {
        // whole model 0.9 at one row, shard 0.6; the shard's products take 2x (8 rows) and 2.5x (16 rows) longer
        Map<Integer, Double> ratios = ShardStep.ratios(0.9, 0.6, Map.of(8, 2.0, 16, 2.5));
        assertThat(ratios.get(1)).isCloseTo(1.5, within(1e-15));
        assertThat(ratios.get(8)).isCloseTo(3.0, within(1e-15));
        assertThat(ratios.get(16)).isCloseTo(3.75, within(1e-15));

        OperatorClass fp16 = new OperatorClass.Gemv(Precision.FP16);
        Calibration whole = new Calibration(
                new Calibration.Provenance("H200", LocalDate.of(2026, 11, 26), "test"),
                4.3e12,
                1.5e-6,
                10,
                2,
                Map.of(fp16, 0.9, OperatorClass.ATTENTION, 0.8));
        Calibration shard = GemvRowScaling.apply(whole, Map.of(WeightFormat.FP16, ratios));
        assertThat(shard.efficiency(new OperatorClass.Gemv(Precision.FP16, 1))).isCloseTo(0.6, within(1e-15));
        assertThat(shard.efficiency(new OperatorClass.Gemv(Precision.FP16, 8))).isCloseTo(0.3, within(1e-15));
        assertThat(shard.efficiency(new OperatorClass.Gemv(Precision.FP16, 16))).isCloseTo(0.24, within(1e-15));
        assertThat(shard.efficiency(OperatorClass.ATTENTION)).isEqualTo(0.8);
        assertThat(shard.launchSeconds()).isEqualTo(1.5e-6);
    }

    @Test
    void nonPositiveEfficienciesAreRefused() {
        assertThatThrownBy(() -> ShardStep.ratios(0.9, 0, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0.0 (shard)");
    }
}
