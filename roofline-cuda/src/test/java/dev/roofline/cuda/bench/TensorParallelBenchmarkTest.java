package dev.roofline.cuda.bench;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.core.parallel.Collective;
import dev.roofline.core.parallel.CollectiveFit;
import dev.roofline.core.parallel.Deployment;
import dev.roofline.core.parallel.Serving;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The tensor-parallel step's table and errors, without a GPU. */
class TensorParallelBenchmarkTest {

    @Test
    void errorsAreAgainstTheMeasuredStepAndAMissingCalibrationLeavesItsCellsEmpty() {
        var with = new TensorParallelBenchmark.Result(
                "Llama-3-8B", 2, WeightFormat.FP16, 1, 1024, 3e-3, 1.2e-3, 1.7e-3, 2.4e-3, 0.5e-3, 3.3e-3, 1.1e-3);
        assertThat(with.datasheetErrorPercent()).isCloseTo(-20, within(1e-9));
        assertThat(with.calibratedErrorPercent()).isCloseTo(10, within(1e-9));
        var without = new TensorParallelBenchmark.Result(
                "Llama-3-8B",
                2,
                WeightFormat.FP8_E4M3,
                8,
                1024,
                2e-3,
                1e-3,
                0.9e-3,
                1.5e-3,
                0.5e-3,
                Double.NaN,
                Double.NaN);
        String csv = new TensorParallelBenchmark.Results("2 x H100", "2.28.9", Optional.empty(), List.of(with, without))
                .render(ReportFormat.CSV);
        assertThat(csv.lines().toList())
                .containsExactly(
                        "config,measured_us,all_reduces_us,one_gpu_part_us,datasheet_us,datasheet_error_pct,calibrated_us,"
                                + "calibrated_error_pct,predicted_all_reduces_us",
                        "Llama-3-8B TP2 FP16 B1 C1024,3000.000,1200.000,1700.000,2400.000,-20.00,3300.000,10.00,1100.000",
                        "Llama-3-8B TP2 FP8_E4M3 B8 C1024,2000.000,1000.000,900.000,1500.000,-25.00,,,500.000");
    }

    @Test
    void thePredictionIsTheShardPlusTwoAllReducesALayer() {
        // Llama-3-8B at TP 2, FP16, batch 1 x 1k on an H100: 64 all-reduces of 1 x 4096 FP16 values (8192 B)
        Model llama = Models.LLAMA_3_8B;
        Model part = Deployment.tensorParallel(2, Interconnect.NVLINK_4).shard(llama);
        Workload w = DecodeStepBenchmark.workload(WeightFormat.FP16, 1, 1024);
        double shard = DecodeStepResult.stepPrediction(
                Transformer.of(part, Hardware.H100_SXM).predict(w));
        double ncclAllReduce = Serving.allReduceSeconds(2, 8192, Interconnect.NVLINK_4);
        var datasheetOnly = TensorParallelBenchmark.predict(
                llama, 2, WeightFormat.FP16, 1, 1024, Hardware.H100_SXM, Interconnect.NVLINK_4, null);
        assertThat(datasheetOnly.datasheetAllReducesSeconds()).isEqualTo(64 * ncclAllReduce);
        assertThat(datasheetOnly.datasheetSeconds()).isEqualTo(shard + 64 * ncclAllReduce);
        assertThat(datasheetOnly.calibratedSeconds()).isNaN();
        // with a fit for 2 GPUs: 7 us + 8192 bus bytes (2 (n - 1) / n = 1 at n = 2) at 250 GB/s each
        Calibration noFit = new Calibration(
                new Calibration.Provenance("NVIDIA H100 80GB HBM3", LocalDate.of(2026, 11, 25), "by hand"),
                3.0e12,
                1.5e-6,
                10,
                2,
                Map.of());
        Calibration fitted =
                noFit.withCollectives(List.of(new CollectiveFit(Collective.Op.ALL_REDUCE, 2, 7e-6, 2.5e11)));
        var withFit = TensorParallelBenchmark.predict(
                llama, 2, WeightFormat.FP16, 1, 1024, Hardware.H100_SXM, Interconnect.NVLINK_4, fitted);
        assertThat(withFit.calibratedAllReducesSeconds()).isCloseTo(64 * (7e-6 + 8192 / 2.5e11), within(1e-15));
        // the shard at the calibration's copy bandwidth and launches, 10 a layer and 2 outside, as the decoder runs it
        double calibratedShard = DecodeCalibration.stepSeconds(noFit, part, Hardware.H100_SXM, w, 10L * 32 + 2);
        assertThat(withFit.calibratedSeconds())
                .isCloseTo(calibratedShard + withFit.calibratedAllReducesSeconds(), within(1e-15));
        // a calibration without a fit for these GPUs prices the all-reduces as the datasheet does
        var noFitFor2 = TensorParallelBenchmark.predict(
                llama, 2, WeightFormat.FP16, 1, 1024, Hardware.H100_SXM, Interconnect.NVLINK_4, noFit);
        assertThat(noFitFor2.calibratedAllReducesSeconds()).isEqualTo(64 * ncclAllReduce);
    }
}
