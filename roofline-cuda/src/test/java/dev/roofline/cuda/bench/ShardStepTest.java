package dev.roofline.cuda.bench;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The shard's product efficiency from its profiled step and the class it prices, by hand. */
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
        assertThat(ShardStep.productEfficiency(r, 2e-6)).isCloseTo(4100.0 / 4200, within(1e-12));
        // at 1 us: 532 + 332 + 2032 + 1032 + 401 = 4329 us
        assertThat(ShardStep.productEfficiency(r, 1e-6)).isCloseTo(4100.0 / 4329, within(1e-12));
    }

    @Test
    void productsNoSlowerThanTheirLaunchesAreCappedAtTheLargestEfficiency() {
        DecodeStepResult r = ProfiledSteps.llama3Fp16(PROFILE);
        // 4 x 32 + 1 launches at 40 us: more than the 4494 us measured
        assertThat(ShardStep.productEfficiency(r, 40e-6)).isEqualTo(Calibration.MAX_EFFICIENCY);
    }

    @Test
    void aStepWithoutAProfileIsRefusedByName() {
        assertThatThrownBy(() -> ShardStep.productEfficiency(ProfiledSteps.llama3Fp16(new double[0][]), 1e-6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Llama-3-8B")
                .hasMessageContaining("not profiled");
    }

    @Test
    void eachBatchIsPricedByTheClassMeasuredAtItsRowsAndTheRestOfTheCalibrationStays() {
        DecodeStepResult r = ProfiledSteps.llama3Fp16(PROFILE);
        OperatorClass m8 = ShardStep.productClass(WeightFormat.FP16, 8, r);
        assertThat(m8).isEqualTo(new OperatorClass.Gemv(Precision.FP16, 8));
        assertThat(ShardStep.productClass(WeightFormat.NVFP4, 1, r))
                .isEqualTo(new OperatorClass.Gemv(Precision.NVFP4, 1));
        // above the rows a gemv class is measured at: the products' own class in the profile (a one-row FP16 step here)
        assertThat(ShardStep.productClass(WeightFormat.FP16, 64, r)).isEqualTo(new OperatorClass.Gemv(Precision.FP16));

        // a whole-model calibration of 0.9 at any row count and 0.5 at 8 rows: the class at 8 rows is the one the
        // 8-row FP16 product is priced with, and 0.6 in its place makes it 0.5 / 0.6 as long
        OperatorClass fp16 = new OperatorClass.Gemv(Precision.FP16);
        Calibration whole = new Calibration(
                new Calibration.Provenance("H200", LocalDate.of(2026, 11, 26), "test"),
                4.3e12,
                1.5e-6,
                10,
                2,
                Map.of(fp16, 0.9, m8, 0.5, OperatorClass.ATTENTION, 0.8));
        Map<OperatorClass, Double> e = new java.util.LinkedHashMap<>(whole.efficiencies());
        e.put(m8, 0.6);
        Calibration shard = whole.withEfficiencies(e);
        Transformer t = Transformer.of(Models.LLAMA_3_8B, Hardware.H200);
        Workload w8 = Workload.decode(8, 1024).withWeights(Precision.FP16);
        double before = whole.predict(t, w8).calibrated().operator("down_proj").timeSeconds();
        double after = shard.predict(t, w8).calibrated().operator("down_proj").timeSeconds();
        double latency = whole.predict(t, w8)
                .calibrated()
                .operator("down_proj")
                .prediction()
                .latencySeconds();
        assertThat(after - latency).isCloseTo((before - latency) * 0.5 / 0.6, within(1e-12));
        assertThat(shard.efficiency(OperatorClass.ATTENTION)).isEqualTo(0.8);
    }
}
