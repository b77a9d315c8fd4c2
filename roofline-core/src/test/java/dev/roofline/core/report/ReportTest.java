package dev.roofline.core.report;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReportTest {

    static final ModelPrediction LLAMA =
            Transformer.of(Models.LLAMA_3_8B, Hardware.GB10).predict(Workload.decode(1, 4096));

    @Test
    void markdownHasOneRowPerOperatorAndATotal() {
        String md = OperatorTable.markdown(LLAMA);
        List<String> lines = md.lines().toList();
        assertThat(lines).hasSize(2 + LLAMA.operators().size() + 1);
        assertThat(lines.getFirst())
                .isEqualTo("| operator | count | FLOPs | bytes | FLOP/B | bound | time us | share % | compute path |");
        assertThat(md)
                .contains(
                        "| q_proj | 32 | " + 32L * 2 * 4096 * 4096 + " | " + 32L * (4096 * 4096 + 2 * 4096) * 2 + " |");
        assertThat(lines.getLast()).startsWith("| **total** | | " + LLAMA.flops() + " | " + LLAMA.bytes());
    }

    @Test
    void csvQuotesCellsWithCommas() {
        String csv = OperatorTable.csv(LLAMA);
        assertThat(csv.split("\r\n")).hasSize(1 + LLAMA.operators().size());
        assertThat(csv).startsWith("operator,count,FLOPs,bytes,FLOP/B,bound,time us,share %,compute path\r\n");
        assertThat(OperatorTable.csvCell("a,b \"c\"")).isEqualTo("\"a,b \"\"c\"\"\"");
    }

    @Test
    void svgHasAxesCeilingsSlopePointsAndLegend() {
        String svg = RooflineChart.of(Hardware.GB200, List.of(Precision.FP16, Precision.FP8_E4M3, Precision.NVFP4))
                .withPrediction(LLAMA)
                .withPoint(new ChartPoint("measured gemv", 0.9, 3.5e12, true))
                .svg();
        assertThat(svg).startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"").endsWith("</svg>\n");
        assertThat(svg).contains("arithmetic intensity (FLOP/byte)").contains("attainable FLOP/s");
        assertThat(svg)
                .contains("DRAM 8000 GB/s")
                .contains("FP16 2.5 PFLOPS (ridge 313)")
                .contains("NVFP4 10 PFLOPS (ridge 1250)");
        assertThat(svg)
                .contains(">1 TFLOPS<")
                .contains(">10<")
                .contains(">measured gemv<")
                .contains("q_proj");
        // the embedding gather does no arithmetic and is left off the log axis
        assertThat(svg).doesNotContain("embedding");
    }

    @Test
    void chartRefusesCeilingsTheGpuLacks() {
        assertThatThrownBy(() -> RooflineChart.of(Hardware.H100_SXM, List.of(Precision.NVFP4)))
                .hasMessageContaining("H100 SXM has no NVFP4 ceiling");
        assertThatThrownBy(() -> new ChartPoint("x", 0, 1, false))
                .hasMessageContaining("flopsPerByte must be a finite number > 0, got 0.0");
    }
}
