package dev.roofline.core.calibration;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Source;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.roofline.core.calibration.CalibratedPredictionTest.CALIBRATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CalibrationTest {

    static final Calibration.Provenance RUN =
            new Calibration.Provenance("NVIDIA H200", LocalDate.of(2026, 11, 24), "roofline decode-bench llama-3-8b");

    private static Calibration with(
            double copy, double launch, int perLayer, int perModel, Map<OperatorClass, Double> e) {
        return new Calibration(RUN, copy, launch, perLayer, perModel, e);
    }

    @Test
    void aPassIsCountedByTheFirstPlanThatMatchesIt() {
        // fitted on a fused plan (7 a layer); the engine launches 10 a layer elsewhere, 12 and 13 with experts
        Calibration c = with(4.3e12, 1.2e-6, 7, 2, Map.of())
                .withPlans(List.of(
                        new LaunchPlan(Precision.FP16, 1, false, 7, 2),
                        new LaunchPlan(null, Integer.MAX_VALUE, false, 10, 2),
                        new LaunchPlan(Precision.FP16, 1, true, 12, 2),
                        new LaunchPlan(null, Integer.MAX_VALUE, true, 13, 2)));
        Workload fp16 = Workload.decode(1, 1024).withWeights(Precision.FP16);
        // Llama-3-8B, 32 layers: 7 x 32 + 2 = 226; 10 x 32 + 2 = 322
        assertThat(c.launches(Models.LLAMA_3_8B, fp16)).isEqualTo(226);
        assertThat(c.launches(Models.LLAMA_3_8B, Workload.decode(8, 1024).withWeights(Precision.FP16)))
                .isEqualTo(322);
        assertThat(c.launches(Models.LLAMA_3_8B, fp16.withWeights(Precision.FP8_E4M3)))
                .isEqualTo(322);
        // a prefill of one 1024-token prompt has products of 1024 rows: the unfused plan
        assertThat(c.launches(Models.LLAMA_3_8B, Workload.prefill(1, 1024).withWeights(Precision.FP16)))
                .isEqualTo(322);
        // Mixtral-8x7B, 32 layers: 12 x 32 + 2 = 386 at FP16 batch 1, 13 x 32 + 2 = 418 at NVFP4
        assertThat(c.launches(Models.MIXTRAL_8X7B, fp16)).isEqualTo(386);
        assertThat(c.launches(Models.MIXTRAL_8X7B, fp16.withWeights(Precision.NVFP4)))
                .isEqualTo(418);
        // without plans every pass is the measured configuration's
        Calibration flat = with(4.3e12, 1.2e-6, 7, 2, Map.of());
        assertThat(flat.launches(Models.LLAMA_3_8B, fp16.withWeights(Precision.FP8_E4M3)))
                .isEqualTo(flat.launches(Models.LLAMA_3_8B))
                .isEqualTo(226);
        assertThatThrownBy(() -> new LaunchPlan(null, 0, false, 7, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxBatch must be >= 1, got 0");
        assertThatThrownBy(() -> new LaunchPlan(null, 1, false, -1, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("kernelsPerLayer must be >= 0, got -1");
    }

    @Test
    void provenanceSaysWhereWhenAndHow() {
        assertThat(RUN.toString()).isEqualTo("measured on NVIDIA H200 2026-11-24 (roofline decode-bench llama-3-8b)");
        assertThat(RUN.asSource().kind()).isEqualTo(Source.Kind.MEASURED);
        assertThat(RUN.asSource().toString())
                .isEqualTo("measured on NVIDIA H200, 2026-11-24 (roofline decode-bench llama-3-8b)");
        assertThat(CALIBRATION.applyTo(Hardware.H200).source(Hardware.Figure.MEMORY_BANDWIDTH))
                .isEqualTo(CALIBRATION.provenance().asSource());
    }

    @Test
    void efficienciesAreKeptInKeyOrderAndCannotBeChanged() {
        Calibration c = with(
                4e12,
                0,
                0,
                0,
                Map.of(
                        new OperatorClass.Gemv(Precision.NVFP4),
                        0.6,
                        OperatorClass.ATTENTION,
                        0.4,
                        new OperatorClass.Gemm(Precision.FP16),
                        0.9));
        assertThat(c.efficiencies().keySet())
                .extracting(OperatorClass::key)
                .containsExactly("attention", "gemm FP16", "gemv NVFP4");
        assertThatThrownBy(() -> c.efficiencies().put(OperatorClass.ELEMENTWISE, 1.0))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(c.efficiency(OperatorClass.ATTENTION)).isEqualTo(0.4);
        assertThat(c.calibrates(OperatorClass.ELEMENTWISE)).isFalse();
        assertThat(c.efficiency(OperatorClass.ELEMENTWISE)).isEqualTo(1.0);
    }

    @Test
    void anEfficiencyAboveOneIsAllowedUpToOneAndAHalf() {
        assertThat(with(4e12, 0, 0, 0, Map.of(OperatorClass.ATTENTION, 1.5)).efficiency(OperatorClass.ATTENTION))
                .isEqualTo(1.5);
        assertThatThrownBy(() -> with(4e12, 0, 0, 0, Map.of(OperatorClass.ATTENTION, 1.51)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("efficiencies: attention must be in (0, 1.5], got 1.51");
        assertThatThrownBy(() -> with(4e12, 0, 0, 0, Map.of(OperatorClass.ATTENTION, Double.NaN)))
                .hasMessage("efficiencies: attention must be in (0, 1.5], got NaN");
        Map<OperatorClass, Double> nulls = new HashMap<>();
        nulls.put(OperatorClass.ELEMENTWISE, null);
        assertThatThrownBy(() -> with(4e12, 0, 0, 0, nulls))
                .hasMessage("efficiencies: elementwise must be in (0, 1.5], got null");
        nulls.clear();
        nulls.put(null, 1.0);
        assertThatThrownBy(() -> with(4e12, 0, 0, 0, nulls)).hasMessage("efficiencies key must not be null");
    }

    /** A calibration with fixed times {@code f} and no efficiencies. */
    private static Calibration fixed(Map<OperatorClass, Double> f) {
        return new Calibration(RUN, 4e12, 0, 0, 0, Map.of(), f);
    }

    @Test
    void fixedTimesAreKeptInKeyOrderAndAClassLeftOutCostsNothing() {
        Calibration c = fixed(Map.of(OperatorClass.ELEMENTWISE, 1e-7, OperatorClass.ATTENTION, 6e-6));
        assertThat(c.fixedSeconds().keySet()).containsExactly(OperatorClass.ATTENTION, OperatorClass.ELEMENTWISE);
        assertThatThrownBy(() -> c.fixedSeconds().put(OperatorClass.ATTENTION, 0.0))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(c.fixedSecondsOf(OperatorClass.ATTENTION)).isEqualTo(6e-6);
        assertThat(c.fixedSecondsOf(new OperatorClass.Gemv(Precision.FP16))).isZero();
        // a fixed time is not an efficiency: the class stays uncalibrated and at the copy bandwidth
        assertThat(c.calibrates(OperatorClass.ATTENTION)).isFalse();
        assertThat(c.efficiency(OperatorClass.ATTENTION)).isEqualTo(1.0);
    }

    @Test
    void theSixArgumentConstructorHasNoFixedTimes() {
        Calibration c = with(4e12, 2e-6, 10, 2, Map.of(OperatorClass.ATTENTION, 0.7));
        assertThat(c.fixedSeconds()).isEmpty();
        assertThat(c)
                .isEqualTo(new Calibration(RUN, 4e12, 2e-6, 10, 2, Map.of(OperatorClass.ATTENTION, 0.7), Map.of()));
    }

    @Test
    void aFixedTimeIsAllowedFromZeroToOneSecond() {
        assertThat(fixed(Map.of(OperatorClass.ATTENTION, 0.0)).fixedSecondsOf(OperatorClass.ATTENTION))
                .isZero();
        assertThat(fixed(Map.of(OperatorClass.ATTENTION, 1.0)).fixedSecondsOf(OperatorClass.ATTENTION))
                .isEqualTo(Hardware.MAX_KERNEL_LATENCY_SECONDS);
        assertThatThrownBy(() -> fixed(Map.of(OperatorClass.ATTENTION, -6e-6)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fixedSeconds: attention must be in [0, 1] s, got -6.0E-6");
        assertThatThrownBy(() -> fixed(Map.of(new OperatorClass.Gemv(Precision.NVFP4), Double.NaN)))
                .hasMessage("fixedSeconds: gemv NVFP4 must be in [0, 1] s, got NaN");
        assertThatThrownBy(() -> fixed(Map.of(OperatorClass.ELEMENTWISE, 1.000001)))
                .hasMessage("fixedSeconds: elementwise must be in [0, 1] s, got 1.000001");
        assertThatThrownBy(() -> fixed(Map.of(OperatorClass.ELEMENTWISE, Double.POSITIVE_INFINITY)))
                .hasMessage("fixedSeconds: elementwise must be in [0, 1] s, got Infinity");
        Map<OperatorClass, Double> nulls = new HashMap<>();
        nulls.put(OperatorClass.ATTENTION, null);
        assertThatThrownBy(() -> fixed(nulls)).hasMessage("fixedSeconds: attention must be in [0, 1] s, got null");
        nulls.clear();
        nulls.put(null, 6e-6);
        assertThatThrownBy(() -> fixed(nulls)).hasMessage("fixedSeconds key must not be null");
        assertThatThrownBy(() -> fixed(null)).hasMessage("fixedSeconds must not be null");
        assertThatThrownBy(() -> CALIBRATION.fixedSecondsOf(null)).hasMessage("class must not be null");
    }

    @Test
    void eachMisuseIsRefusedNamingTheArgument() {
        assertThatThrownBy(() -> with(0.5e9, 0, 0, 0, Map.of()))
                .hasMessage("copyBytesPerSecond must be a finite number of at least 1 GB/s (1.0E9), got 5.0E8");
        assertThatThrownBy(() -> with(Double.POSITIVE_INFINITY, 0, 0, 0, Map.of()))
                .hasMessageStartingWith("copyBytesPerSecond must be a finite number");
        assertThatThrownBy(() -> with(4e12, -1e-6, 0, 0, Map.of()))
                .hasMessage("launchSeconds must be in [0, 1] s, got -1.0E-6");
        assertThatThrownBy(() -> with(4e12, 1.5, 0, 0, Map.of()))
                .hasMessage("launchSeconds must be in [0, 1] s, got 1.5");
        assertThatThrownBy(() -> with(4e12, 0, -1, 0, Map.of())).hasMessage("kernelsPerLayer must be >= 0, got -1");
        assertThatThrownBy(() -> with(4e12, 0, 0, -2, Map.of())).hasMessage("kernelsPerModel must be >= 0, got -2");
        assertThatThrownBy(() -> with(4e12, 0, 0, 0, null)).hasMessage("efficiencies must not be null");
        assertThatThrownBy(() -> new Calibration(null, 4e12, 0, 0, 0, Map.of()))
                .hasMessage("provenance must not be null");
        assertThatThrownBy(() -> new Calibration.Provenance(" ", LocalDate.EPOCH, "x"))
                .hasMessage("device must not be blank, got ' '");
        assertThatThrownBy(() -> new Calibration.Provenance("x", null, "x")).hasMessage("date must not be null");
        assertThatThrownBy(() -> new Calibration.Provenance("x", LocalDate.EPOCH, null))
                .hasMessage("source must not be blank, got null");
        assertThatThrownBy(() -> CALIBRATION.efficiency(null)).hasMessage("class must not be null");
        assertThatThrownBy(() -> CALIBRATION.applyTo(null)).hasMessage("hardware must not be null");
    }
}
