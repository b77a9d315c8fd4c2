package dev.roofline.cuda.bench;

import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

/** The GEMV report from hand-made measurements (see {@link MeasurementTest} for the kernel row's figures). */
class GemvBenchmarkResultsTest {
    private static final DeviceCeilings CEILINGS = new DeviceCeilings(
            "NVIDIA H200",
            LocalDate.of(2026, 11, 24),
            4e12,
            2e-6,
            "line through copies, L2-cold",
            Map.of(),
            "",
            Map.of());

    /** A decoder linear: measured {@code micros}, predicted {@code predicted} (memory) + 1 us latency, datasheet {@code sheet}. */
    private static Measurement linear(String name, String format, double micros, double predicted, double sheet) {
        Gemm g = Gemm.gemv(4096, 4096).named(name);
        return new Measurement(format, g, TimingStats.of(micros), MeasurementTest.prediction(g, predicted - 1, 1))
                .withDatasheet(MeasurementTest.prediction(g, sheet, 0));
    }

    private static GemvBenchmarkResults results() {
        return new GemvBenchmarkResults(
                "NVIDIA H200 (sm_90)",
                CEILINGS,
                List.of(MeasurementTest.gemv()),
                List.of(
                        linear("qkv_proj", "NVFP4", 10, 8, 5),
                        linear("o_proj", "NVFP4", 20, 16, 10),
                        linear("qkv_proj", "FP16", 30, 30, 20)));
    }

    /** An NVFP4 product of {@code m} rows: measured {@code micros}, predicted {@code memory} + 2 us latency. */
    private static Measurement nvfp4(String label, long m, long n, long k, double micros, double memory) {
        Gemm g = new Gemm("gemv", 1, m, n, k, Precision.NVFP4, Precision.FP16, Precision.FP16);
        return new Measurement(label, g, TimingStats.of(micros), MeasurementTest.prediction(g, memory, 2));
    }

    @Test
    void rowsOverOnePairsEachKernelAtSeveralRowsWithItsOneRowRun() {
        List<RowsOverOne> rows = RowsOverOne.of(List.of(
                nvfp4("NVFP4", 1, 8192, 8192, 12, 10),
                nvfp4("NVFP4", 16, 8192, 8192, 18, 10.2),
                nvfp4("INT4", 16, 8192, 8192, 20, 10), // no one-row run of INT4
                nvfp4("NVFP4", 8, 4096, 4096, 9, 4), // nor of this shape
                nvfp4("NVFP4", 8, 8192, 8192, 15, 10.1)));
        assertThat(rows)
                .extracting(RowsOverOne::label, RowsOverOne::n, RowsOverOne::k, RowsOverOne::m)
                .containsExactly(tuple("NVFP4", 8192L, 8192L, 16L), tuple("NVFP4", 8192L, 8192L, 8L));
        assertThat(rows.get(0).measured()).isCloseTo(1.5, within(1e-12)); // 18 / 12
        assertThat(rows.get(0).roofline()).isCloseTo(12.2 / 12, within(1e-12)); // (10.2 + 2) / (10 + 2)
        assertThat(rows.get(1).measured()).isCloseTo(1.25, within(1e-12)); // 15 / 12
    }

    @Test
    void rowsOverOneTakesTheFirstOneRowRunOfALabelAndShape() {
        List<RowsOverOne> rows = RowsOverOne.of(List.of(
                nvfp4("NVFP4", 1, 8192, 8192, 10, 10),
                nvfp4("NVFP4", 1, 8192, 8192, 20, 10),
                nvfp4("NVFP4", 16, 8192, 8192, 15, 10)));
        assertThat(rows).singleElement().satisfies(r -> assertThat(r.measured())
                .isCloseTo(1.5, within(1e-12))); // 15 / 10
    }

    @Test
    void theTextReportSetsRowsAgainstOneRowWhereBothRan() {
        GemvBenchmarkResults both = new GemvBenchmarkResults(
                "NVIDIA H200 (sm_90)",
                CEILINGS,
                List.of(nvfp4("NVFP4", 1, 8192, 8192, 12, 10), nvfp4("NVFP4", 16, 8192, 8192, 18, 10.2)),
                List.of());
        List<String> lines = both.render(ReportFormat.TEXT).lines().toList();
        int heading = lines.indexOf("Rows against one row");
        assertThat(heading).isPositive();
        assertThat(lines.get(heading + 1).split(" {2,}"))
                .containsExactly("format", "shape NxK", "M", "measured / M=1", "roofline / M=1");
        assertThat(lines.get(heading + 2).split(" {2,}")).containsExactly("NVFP4", "8192x8192", "16", "1.50x", "1.02x");
        assertThat(results().render(ReportFormat.TEXT)).doesNotContain("Rows against one row");
    }

    @Test
    void layerTotalsSumEachFormatsLinears() {
        List<LayerTotal> totals = results().layerTotals();
        assertThat(totals).extracting(LayerTotal::label).containsExactly("NVFP4", "FP16");
        LayerTotal nvfp4 = totals.getFirst();
        assertThat(nvfp4.measuredMicros()).isCloseTo(30, within(1e-9));
        assertThat(nvfp4.predictedMicros()).isCloseTo(24, within(1e-9));
        assertThat(nvfp4.datasheetMicros()).isCloseTo(15, within(1e-9));
        assertThat(nvfp4.errorPercent()).isCloseTo(25, within(1e-9)); // 30 / 24 - 1
        assertThatThrownBy(() -> LayerTotal.of(List.of(linear("a", "NVFP4", 1, 1, 1), linear("b", "FP16", 1, 1, 1))))
                .hasMessageContaining("one format");
    }

    @Test
    void theTextReportHasTodaysKernelColumnsAndValues() {
        String text = results().render(ReportFormat.TEXT);
        assertThat(text)
                .startsWith(
                        "device: NVIDIA H200 (sm_90)\ncopy bandwidth (read + write): 4000 GB/s, kernel latency 2.00 us"
                                + " (line through copies, L2-cold)\n");
        List<String> lines = text.lines().toList();
        int header = lines.indexOf(lines.stream()
                .filter(l -> l.startsWith("shape NxK"))
                .findFirst()
                .orElseThrow());
        assertThat(lines.get(header).split(" {2,}"))
                .containsExactly(
                        "shape NxK",
                        "M",
                        "format",
                        "median us",
                        "cuBLAS FP16 us",
                        "speedup",
                        "weight GB/s",
                        "% of copy",
                        "roofline us",
                        "err %",
                        "same-bytes copy us",
                        "vs copy",
                        "same-bytes read us",
                        "vs read",
                        "err % w/o latency",
                        "speedup at roofline",
                        "% of copy at roofline");
        // 13 us; cuBLAS 39 us, 3.00x; 3000 GB/s = 75.0 % of 4 TB/s; 12 us predicted, +8.3 %; copy 10.4 us, 1.25x; read
        // 9.75 us, 13 / 9.75 = 1.33x; +30.0
        // % w/o
        // latency; 39 / 12 = 3.25x and 81.25 % at the roofline
        assertThat(lines.get(header + 1).split(" {2,}"))
                .containsExactly(
                        "8192x8192",
                        "1",
                        "NVFP4",
                        "13.00",
                        "39.00",
                        "3.00x",
                        "3000",
                        "75.0%",
                        "12.00",
                        "+8.3",
                        "10.40",
                        "1.25x",
                        "9.75",
                        "1.33x",
                        "+30.0",
                        "3.25x",
                        "81.3%");
    }

    @Test
    void theTextReportEndsWithTheDecoderLayerAndItsTotals() {
        List<String> lines = results().render(ReportFormat.TEXT).lines().toList();
        assertThat(lines).contains("Llama-3-8B decoder layer, M=1");
        assertThat(lines.stream()
                        .filter(l -> l.startsWith("o_proj"))
                        .findFirst()
                        .orElseThrow()
                        .split(" {2,}"))
                .containsExactly("o_proj", "NVFP4", "4096x4096", "20.00", "16.00", "10.00");
        assertThat(lines.stream()
                        .filter(l -> l.startsWith("NVFP4"))
                        .findFirst()
                        .orElseThrow()
                        .split(" {2,}"))
                .containsExactly("NVFP4", "30.00", "24.00", "15.00", "+25.0");
    }

    @Test
    void theCsvHoldsEveryMeasurementWithEmptyCellsWhereAFigureHasNoInput() {
        List<String> lines = results().render(ReportFormat.CSV).lines().toList();
        assertThat(lines).hasSize(1 + 1 + 3);
        List<String> header = List.of(lines.getFirst().split(",", -1));
        assertThat(header)
                .startsWith("operator", "m", "format", "n", "k", "median_us")
                .contains("cublas_fp16_us", "speedup", "pct_of_copy_at_roofline", "datasheet_us", "bound")
                .doesNotContain("shape NxK");
        List<String> kernel = List.of(lines.get(1).split(",", -1));
        assertThat(kernel).hasSize(header.size());
        assertThat(kernel.get(header.indexOf("operator"))).isEqualTo("NVFP4 gemv 8192x8192");
        assertThat(kernel.get(header.indexOf("speedup"))).isEqualTo("3.000");
        assertThat(kernel.get(header.indexOf("pct_of_copy_at_roofline"))).isEqualTo("81.25");
        assertThat(kernel.get(header.indexOf("datasheet_us"))).isEqualTo("6.500");
        List<String> linear = List.of(lines.get(2).split(",", -1));
        assertThat(linear).hasSize(header.size());
        assertThat(linear.get(header.indexOf("operator"))).isEqualTo("qkv_proj");
        assertThat(linear.get(header.indexOf("cublas_fp16_us"))).isEmpty();
        assertThat(linear.get(header.indexOf("pct_of_copy"))).isEmpty();
        assertThat(linear.get(header.indexOf("roofline_us"))).isEqualTo("8.000");
    }

    @Test
    void theMarkdownReportHasATableAndAHeadingPerSection() {
        String md = results().render(ReportFormat.MARKDOWN);
        assertThat(md)
                .contains("### GEMV kernels\n\n| shape NxK | M | format | median us |")
                .contains("| 8192x8192 | 1 | NVFP4 | 13.00 | 39.00 | 3.00x |")
                .contains("### Llama-3-8B decoder layer, M=1\n\n| linear | format |")
                .contains("| NVFP4 | 30.00 | 24.00 | 15.00 | +25.0 |");
    }
}
