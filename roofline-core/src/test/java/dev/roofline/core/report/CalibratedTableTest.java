package dev.roofline.core.report;

import dev.roofline.core.calibration.CalibratedPrediction;
import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The operator table of a calibrated prediction: calibrated times, and the launches as a row of their own. */
class CalibratedTableTest {

    static final CalibratedPrediction P = new Calibration(
                    new Calibration.Provenance("NVIDIA H200", LocalDate.of(2026, 11, 24), "test"),
                    4.3e12,
                    2.5e-6,
                    10,
                    2,
                    Map.of(new OperatorClass.Gemv(Precision.FP16), 0.95, OperatorClass.ELEMENTWISE, 0.3))
            .predict(Transformer.of(Models.LLAMA_3_8B, Hardware.H200), Workload.decode(1, 1024));

    @Test
    void theLaunchesAreTheLastRowAndTheSharesAddUpToTheWhole() {
        List<List<String>> rows = OperatorTable.rows(P);
        assertThat(rows).hasSize(P.calibrated().operators().size() + 1);
        // 10 kernels x 32 layers + 2 = 322 launches of 2.5 µs = 805 µs
        assertThat(rows.getLast())
                .containsExactly(
                        OperatorTable.LAUNCHES,
                        "322",
                        "0",
                        "0",
                        "",
                        "launch",
                        "805.000",
                        String.format(Locale.ROOT, "%.2f", 100 * 805e-6 / P.timeSeconds()),
                        "");
        double shares =
                rows.stream().mapToDouble(r -> Double.parseDouble(r.get(7))).sum();
        assertThat(shares).isCloseTo(100, within(0.01 * rows.size()));
        // q_proj: 32 x (4096 x 4096 + 2 x 4096) x 2 B at 0.95 x 4.3 TB/s
        double qProj = 32.0 * (4096 * 4096 + 2 * 4096) * 2 / (0.95 * 4.3e12);
        assertThat(rows.getFirst().getFirst()).isEqualTo("embedding");
        assertThat(rows.stream()
                        .filter(r -> r.getFirst().equals("q_proj"))
                        .findFirst()
                        .orElseThrow()
                        .get(6))
                .isEqualTo(String.format(Locale.ROOT, "%.3f", qProj * 1e6));
    }

    @Test
    void markdownTotalsAndCsvCarryTheCalibratedTime() {
        List<String> md = OperatorTable.markdown(P).lines().toList();
        assertThat(md).hasSize(2 + P.calibrated().operators().size() + 1 + 1);
        assertThat(md.get(md.size() - 2)).startsWith("| kernel launches | 322 | 0 | 0 |  | launch | 805.000 |");
        assertThat(md.getLast())
                .isEqualTo(String.format(
                        Locale.ROOT,
                        "| **total** | | %d | %d | | | %.3f | 100.00 | |",
                        P.base().flops(),
                        P.base().bytes(),
                        P.timeSeconds() * 1e6));
        assertThat(OperatorTable.csv(P)).contains("\r\nkernel launches,322,0,0,,launch,805.000,");
    }
}
