package dev.roofline.core.report;

import dev.roofline.core.calibration.CalibratedPrediction;
import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.core.parallel.ServingSearch;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.recommend.Recommender;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The HTML report, read back with an HTML parser (jsoup) the way a browser builds its document. */
class HtmlReportTest {
    private static final List<Precision> CEILINGS = List.of(Precision.FP16, Precision.FP8_E4M3, Precision.NVFP4);

    private static Document parse(String html) {
        Parser p = Parser.htmlParser().setTrackErrors(100);
        Document d = Jsoup.parse(html, p);
        assertThat(p.getErrors()).as("HTML parse errors").isEmpty();
        return d;
    }

    @Test
    void aPredictionIsAChartWhosePointsNameTheirFiguresAndATableOfEveryOperator() {
        ModelPrediction p = Transformer.of(Models.LLAMA_3_8B, Hardware.GB10).predict(Workload.decode(1, 8192));
        String html = HtmlReport.titled("Llama-3-8B on GB10")
                .withPrediction("Decode, batch 1, 8k tokens", p, CEILINGS)
                .html();
        Document d = parse(html);
        assertThat(d.title()).isEqualTo("Llama-3-8B on GB10");
        assertThat(d.select("section > h2").text()).isEqualTo("Decode, batch 1, 8k tokens");
        assertThat(d.select("figure > svg")).hasSize(1);
        // hovering q_proj shows its row of the operator table
        List<String> rows = OperatorTable.rows(p).stream()
                .filter(r -> r.getFirst().equals("q_proj"))
                .findFirst()
                .orElseThrow();
        Element q = d.select("svg circle > title").stream()
                .filter(t -> t.text().startsWith("q_proj"))
                .findFirst()
                .orElseThrow();
        assertThat(q.text())
                .contains("count: " + rows.get(1))
                .contains("FLOPs: " + rows.get(2))
                .contains("bound: " + rows.get(5))
                .contains("compute path: " + rows.get(8));
        // the table: the header and one row per operator, as the text and CSV outputs have them
        Element table = d.selectFirst("table.sortable");
        assertThat(table.select("thead th").eachText()).isEqualTo(OperatorTable.HEADER);
        assertThat(table.select("tbody tr")).hasSize(p.operators().size());
        assertThat(table.select("tbody tr").getFirst().select("td").eachText())
                .isEqualTo(OperatorTable.rows(p).getFirst());
        assertThat(d.select("script")).hasSize(1);
    }

    @Test
    void aCalibratedPredictionDrawsEachOperatorsCalibratedTimeHollow() {
        Calibration cal = new Calibration(
                new Calibration.Provenance("NVIDIA H100 80GB HBM3", LocalDate.of(2026, 11, 25), "by hand"),
                3.0e12,
                1.5e-6,
                10,
                2,
                Map.of(OperatorClass.ATTENTION, 0.8));
        CalibratedPrediction c =
                cal.predict(Transformer.of(Models.LLAMA_3_8B, Hardware.H100_SXM), Workload.decode(1, 4096));
        Document d = parse(HtmlReport.titled("t")
                .withCalibrated("calibrated", c, List.of(Precision.FP16))
                .html());
        long withFlops =
                c.base().operators().stream().filter(o -> o.flops() > 0).count();
        assertThat(d.select("circle[fill=none] > title")).hasSize((int) withFlops);
        // hovering shows the calibrated row the table has, and the hollow markers are named calibrated
        List<String> q = OperatorTable.rows(c).stream()
                .filter(r -> r.getFirst().equals("q_proj"))
                .findFirst()
                .orElseThrow();
        assertThat(d.select("circle[fill=#444] > title").stream()
                        .filter(t -> t.text().startsWith("q_proj"))
                        .findFirst()
                        .orElseThrow()
                        .text())
                .contains("time us: " + q.get(6))
                .contains("share %: " + q.get(7));
        assertThat(d.select("circle[fill=none] > title").first().text()).contains("calibrated: ");
        assertThat(d.select("svg text").eachText()).contains("calibrated (hollow)");
        // the table has the calibrated rows and the launches row
        assertThat(d.select("table.sortable tbody tr"))
                .hasSize(OperatorTable.rows(c).size());
        assertThat(d.select("figure text").text()).contains("measured on NVIDIA H100 80GB HBM3 2026-11-25");
    }

    @Test
    void thePageFetchesNothingAndNamesNoUrl() {
        ModelPrediction p = Transformer.of(Models.DEEPSEEK_V3, Hardware.H200).predict(Workload.decode(8, 4096));
        String html = HtmlReport.titled("DeepSeek-V3 on H200")
                .withPrediction("decode", p, List.of(Precision.FP16, Precision.FP8_E4M3))
                .withRecommendation(
                        "precisions",
                        Recommender.on(Hardware.H200).recommend(Models.DEEPSEEK_V3, Workload.decode(8, 4096)))
                .html();
        assertThat(html)
                .doesNotContain("://")
                .doesNotContain("src=")
                .doesNotContain("href=")
                .doesNotContain("@import");
        Document d = parse(html);
        assertThat(d.select("link, img, iframe, object, embed, script[src]")).isEmpty();
        // the largest preset stays well under 1 MB
        assertThat(html.getBytes(StandardCharsets.UTF_8).length).isLessThan(1_000_000);
    }

    @Test
    void namesFromAConfigAreEscaped() {
        Model evil = Model.newBuilder("<script>alert(1)</script>")
                .hiddenSize(1024)
                .layers(2)
                .vocabSize(32000)
                .attention(8, 8)
                .swiGlu(4096)
                .build();
        ModelPrediction p = Transformer.of(evil, Hardware.H100_SXM).predict(Workload.decode(1, 1024));
        String html = HtmlReport.titled(evil.name() + " & co")
                .withPrediction("\"quoted\" <b>heading</b>", p, List.of(Precision.FP16))
                .html();
        Document d = parse(html);
        assertThat(d.select("script")).hasSize(1); // only the page's own sorting script
        assertThat(d.title()).isEqualTo("<script>alert(1)</script> & co");
        assertThat(d.select("h2").text()).isEqualTo("\"quoted\" <b>heading</b>");
        assertThat(d.select("b")).isEmpty();
    }

    @Test
    void aRecommendationListsItsCandidatesAndWhy() {
        var rec = Recommender.on(Hardware.GB10).recommend(Models.LLAMA_3_8B, Workload.decode(1, 8192));
        Document d = parse(
                HtmlReport.titled("t").withRecommendation("Precisions", rec).html());
        assertThat(d.select("table.sortable tbody tr")).hasSize(rec.ranked().size());
        assertThat(d.select("table.sortable thead th").eachText())
                .containsExactly(
                        "weights", "activations", "KV cache", "speedup vs FP16", "tokens/s", "weights GB", "KV GB");
        // the all-FP16 row: FP16's tokens/s; 8,030,261,248 parameters x 2 B = 16.06 GB; KV 8192 x 128 KiB = 1.07 GB
        Element fp16 = d.select("table.sortable tbody tr").stream()
                .filter(tr -> tr.select("td").eachText().subList(0, 3).equals(List.of("FP16", "FP16", "FP16")))
                .findFirst()
                .orElseThrow();
        assertThat(fp16.select("td").eachText().subList(3, 7))
                .containsExactly(
                        "1.00",
                        String.format(java.util.Locale.ROOT, "%.1f", rec.fp16().tokensPerSecond()),
                        "16.06",
                        "1.07");
        assertThat(d.select("p").text())
                .contains("Recommended: " + rec.model().choice().weights().displayName());
        assertThat(d.select("li")).hasSize(rec.roles().size());
    }

    @Test
    void aServingSearchIsItsParetoChartAndTable() {
        ServingSearch.Result r = ServingSearch.run(
                Models.LLAMA_3_70B,
                Hardware.H100_SXM,
                Interconnect.NVLINK_4,
                8,
                2048,
                256,
                2.0,
                0.05,
                List.of(Precision.FP16, Precision.FP8_E4M3));
        Document d = parse(HtmlReport.titled("serving")
                .withServing("Llama-3-70B on 8 H100s", r)
                .html());
        assertThat(d.select("figure > svg")).hasSize(1);
        assertThat(d.select("table.sortable tbody tr")).hasSize(r.pareto().size());
        ServingSearch.Result none = ServingSearch.run(
                Models.LLAMA_3_8B,
                Hardware.H100_SXM,
                Interconnect.NVLINK_4,
                2,
                512,
                64,
                1.0,
                1e-6,
                List.of(Precision.FP16));
        assertThat(parse(HtmlReport.titled("t").withServing("none", none).html())
                        .select("p")
                        .text())
                .contains("No setup meets both targets");
    }

    @Test
    void writingLeavesThePageOrNothing(@TempDir Path dir) throws Exception {
        HtmlReport r = HtmlReport.titled("t");
        Path file = dir.resolve("report.html");
        r.write(file);
        assertThat(Files.readString(file)).isEqualTo(r.html());
        try (var listing = Files.list(dir)) {
            assertThat(listing).containsExactly(file); // no temporary file left beside it
        }
        assertThatThrownBy(() -> r.write(dir.resolve("no/such/dir/report.html")))
                .hasMessageStartingWith("cannot write report " + dir.resolve("no/such/dir/report.html"));
        assertThatThrownBy(() -> HtmlReport.titled(" ")).hasMessageContaining("title");
    }
}
