package dev.roofline.cuda.bench;

import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The tensor-parallel step's table and errors, without a GPU. */
class TensorParallelBenchmarkTest {

    @Test
    void errorsAreAgainstTheMeasuredStepAndAMissingCalibrationLeavesItsCellsEmpty() {
        var with = new TensorParallelBenchmark.Result(
                "Llama-3-8B", 2, WeightFormat.FP16, 1, 1024, 3e-3, 1.2e-3, 2.4e-3, 0.5e-3, 3.3e-3, 1.1e-3);
        assertThat(with.datasheetErrorPercent()).isCloseTo(-20, within(1e-9));
        assertThat(with.calibratedErrorPercent()).isCloseTo(10, within(1e-9));
        var without = new TensorParallelBenchmark.Result(
                "Llama-3-8B", 2, WeightFormat.FP8_E4M3, 8, 1024, 2e-3, 1e-3, 1.5e-3, 0.5e-3, Double.NaN, Double.NaN);
        String csv = new TensorParallelBenchmark.Results("2 x H100", "2.28.9", Optional.empty(), List.of(with, without))
                .render(ReportFormat.CSV);
        assertThat(csv.lines().toList())
                .containsExactly(
                        "config,measured_us,all_reduces_us,datasheet_us,datasheet_error_pct,calibrated_us,"
                                + "calibrated_error_pct,predicted_all_reduces_us",
                        "Llama-3-8B TP2 FP16 B1 C1024,3000.000,1200.000,2400.000,-20.00,3300.000,10.00,1100.000",
                        "Llama-3-8B TP2 FP8_E4M3 B8 C1024,2000.000,1000.000,1500.000,-25.00,,,500.000");
    }
}
