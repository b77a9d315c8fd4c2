package dev.roofline.core.calibration;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Source;
import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.HashMap;
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
