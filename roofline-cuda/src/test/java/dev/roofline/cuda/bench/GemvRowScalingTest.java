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

class GemvRowScalingTest {
    private static final Calibration ONE_ROW = new Calibration(
            new Calibration.Provenance("H200", LocalDate.of(2026, 11, 25), "test"),
            4.3e12,
            1.5e-6,
            10,
            2,
            Map.of(new OperatorClass.Gemv(Precision.NVFP4), 0.6, OperatorClass.ATTENTION, 0.8));

    @Test
    void eachRowCountGetsTheOneRowEfficiencyOverItsTimeRatio() {
        Calibration c = GemvRowScaling.apply(
                ONE_ROW,
                Map.of(
                        WeightFormat.NVFP4, Map.of(8, 1.2, 16, 2.0, 32, 4.0),
                        WeightFormat.FP8_E4M3, Map.of(8, 1.1))); // no one-row FP8 efficiency: left out
        assertThat(c.efficiency(new OperatorClass.Gemv(Precision.NVFP4, 1))).isEqualTo(0.6);
        assertThat(c.efficiency(new OperatorClass.Gemv(Precision.NVFP4, 8))).isCloseTo(0.5, within(1e-15));
        assertThat(c.efficiency(new OperatorClass.Gemv(Precision.NVFP4, 16))).isCloseTo(0.3, within(1e-15));
        assertThat(c.efficiency(new OperatorClass.Gemv(Precision.NVFP4, 32))).isCloseTo(0.15, within(1e-15));
        assertThat(c.calibrates(new OperatorClass.Gemv(Precision.FP8_E4M3, 8))).isFalse();
        assertThat(c.efficiency(OperatorClass.ATTENTION)).isEqualTo(0.8);
        assertThat(c.provenance()).isEqualTo(ONE_ROW.provenance());

        // Llama-3-8B NVFP4: a projection at 16 rows is priced at 0.3, half the one-row 0.6, so at twice the time the
        // one-row calibration gives the same 16-row product (bytes and all); at one row nothing changes
        Transformer t = Transformer.of(Models.LLAMA_3_8B, Hardware.H200);
        Workload w1 = Workload.decode(1, 1024).withWeights(Precision.NVFP4);
        Workload w16 = Workload.decode(16, 1024).withWeights(Precision.NVFP4);
        assertThat(c.predict(t, w1).calibrated().operator("down_proj").timeSeconds())
                .isCloseTo(
                        ONE_ROW.predict(t, w1)
                                .calibrated()
                                .operator("down_proj")
                                .timeSeconds(),
                        within(1e-15));
        assertThat(c.predict(t, w16).calibrated().operator("down_proj").timeSeconds())
                .isCloseTo(
                        2
                                * ONE_ROW.predict(t, w16)
                                        .calibrated()
                                        .operator("down_proj")
                                        .timeSeconds(),
                        within(1e-15));
    }

    @Test
    void aRatioAtOneRowReplacesTheOneRowEfficiency() {
        // a shard 1.2x further from its roofline than the whole model at one row, 2.4x at 8 rows
        Calibration c = GemvRowScaling.apply(ONE_ROW, Map.of(WeightFormat.NVFP4, Map.of(1, 1.2, 8, 2.4)));
        assertThat(c.efficiency(new OperatorClass.Gemv(Precision.NVFP4, 1))).isCloseTo(0.5, within(1e-15));
        assertThat(c.efficiency(new OperatorClass.Gemv(Precision.NVFP4, 8))).isCloseTo(0.25, within(1e-15));
        assertThat(c.efficiency(new OperatorClass.Gemv(Precision.NVFP4))).isEqualTo(0.6);
    }

    @Test
    void timesAreTakenLessTheirLaunchesBeforeTheyAreSetAgainstTheRoofline() {
        // four products, launches of 1.5 us: 6 us. One row: 46 us measured, 40 us of it streaming, over a roofline of
        // 20 us = 2.0; 8 rows (the second entry): 166 us, 160 of it streaming, over 25 us = 6.4. The ratio the
        // calibration divides by is 6.4 / 2.0 = 3.2, where the times with their launches would give (166 / 25) / (46 /
        // 20) = 2.887
        double[] r = GemvRowScaling.overRoofline(
                WeightFormat.NVFP4, new double[] {46e-6, 166e-6}, new double[] {20e-6, 25e-6}, 4, 1.5e-6);
        assertThat(r[0]).isCloseTo(2.0, within(1e-12));
        assertThat(r[1]).isCloseTo(6.4, within(1e-12));
        assertThatThrownBy(() -> GemvRowScaling.overRoofline(
                        WeightFormat.NVFP4, new double[] {5e-6}, new double[] {20e-6}, 4, 1.5e-6))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("NVFP4 products at 1 rows took 5.00 us, no more than their 4 launches at 1.50 us: they"
                        + " are launch-bound, or the launch cost is another GPU's");
    }

    @Test
    void aRatioThatPutsTheEfficiencyOutOfBoundsIsRefused() {
        assertThatThrownBy(() -> GemvRowScaling.apply(ONE_ROW, Map.of(WeightFormat.NVFP4, Map.of(8, 0.0))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("NVFP4 at 8 rows: a time ratio of 0.0 puts the efficiency at Infinity, outside (0, 1.5]");
        assertThatThrownBy(() -> GemvRowScaling.apply(ONE_ROW, Map.of(WeightFormat.NVFP4, Map.of(16, Double.NaN))))
                .hasMessage("NVFP4 at 16 rows: a time ratio of NaN puts the efficiency at NaN, outside (0, 1.5]");
        // 0.6 / 0.3 = 2: faster than the copy by more than half again
        assertThatThrownBy(() -> GemvRowScaling.apply(ONE_ROW, Map.of(WeightFormat.NVFP4, Map.of(32, 0.3))))
                .hasMessage("NVFP4 at 32 rows: a time ratio of 0.3 puts the efficiency at 2.0, outside (0, 1.5]");
        assertThatThrownBy(() -> GemvRowScaling.apply(ONE_ROW, Map.of(WeightFormat.NVFP4, Map.of(32, -1.0))))
                .hasMessage("NVFP4 at 32 rows: a time ratio of -1.0 puts the efficiency at -0.6, outside (0, 1.5]");
    }
}
