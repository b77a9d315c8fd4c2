package dev.roofline.core.cli;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code roofline report}: listed, the page on standard output or in a file, and a config's name escaped. */
class ReportCommandTest {

    @Test
    void thePageGoesToStandardOutputOrToTheFile(@TempDir Path dir) throws Exception {
        MainTest.Run r = MainTest.run("report", "llama-3-8b", "--hw", "gb10", "--context", "8192");
        assertThat(r.status()).as(r.err()).isZero();
        Document d = Jsoup.parse(r.out());
        assertThat(d.title()).isEqualTo("Llama-3-8B on GB10");
        assertThat(d.select("section > h2").eachText())
                .containsExactly("Roofline: decode, batch 1, 8192 tokens of context, FP16 weights", "Precisions");
        Path file = dir.resolve("report.html");
        MainTest.Run w = MainTest.run("report", "llama-3-8b", "--hw", "gb10", "--out", file.toString());
        assertThat(w.status()).as(w.err()).isZero();
        assertThat(w.out()).isEqualTo("wrote " + file + "\n");
        assertThat(Files.readString(file)).startsWith("<!DOCTYPE html>").contains("<svg");
        assertThat(MainTest.run("--help").out()).containsPattern("(?m)^  report +one self-contained HTML page");
    }

    @Test
    void aConfigNamedLikeMarkupIsEscaped(@TempDir Path dir) throws Exception {
        Path folder = Files.createDirectories(dir.resolve("<script>"));
        Path config = folder.resolve("config.json");
        Files.writeString(config, ModelCommandTest.ConfigJsonText.LLAMA_3_8B);
        MainTest.Run r = MainTest.run("report", config.toString(), "--hw", "h100");
        assertThat(r.status()).as(r.err()).isZero();
        Document d = Jsoup.parse(r.out());
        assertThat(d.select("script")).hasSize(1); // the page's own sorting script only
        assertThat(d.title()).isEqualTo("<script> on H100 SXM");
        assertThat(r.out()).contains("&lt;script&gt; on H100 SXM").doesNotContain("<script> on");
    }

    @Test
    void bothPhasesSitSideBySidePrefillFirst() {
        MainTest.Run r = MainTest.run("report", "llama-3-8b", "--hw", "h100", "--context", "2048", "--both-phases");
        assertThat(r.status()).as(r.err()).isZero();
        Document d = Jsoup.parse(r.out());
        assertThat(d.select("section > h2").eachText())
                .containsExactly(
                        "Roofline: prefill, batch 1, 2048 tokens of prompt, FP16 weights",
                        "Roofline: decode, batch 1, 2048 tokens of context, FP16 weights",
                        "Precisions");
        assertThat(d.select("figure > svg")).hasSize(2);
    }

    @Test
    void measuredTimesAreHollowMarkersBesideTheirOperators(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("times.csv");
        Files.writeString(csv, "operator,count,measured_us\nq_proj,32,3000\ngate_proj,32,9000.5\n");
        MainTest.Run r = MainTest.run("report", "llama-3-8b", "--measured-times", csv.toString());
        assertThat(r.status()).as(r.err()).isZero();
        Document d = Jsoup.parse(r.out());
        // the time read back in microseconds: a wrong unit would show here
        assertThat(d.select("circle[fill=none] > title").eachText())
                .containsExactlyInAnyOrder("q_proj measured: 3000.000 us", "gate_proj measured: 9000.500 us");
        Files.writeString(csv, "operator,measured_us\nq_prj,3000\n");
        MainTest.Run unknown = MainTest.run("report", "llama-3-8b", "--measured-times", csv.toString());
        assertThat(unknown.status()).isEqualTo(1);
        assertThat(unknown.err()).contains("no operator [q_prj] in Llama-3-8B");
        Files.writeString(csv, "name,us\nq_proj,3000\n");
        MainTest.Run header = MainTest.run("report", "llama-3-8b", "--measured-times", csv.toString());
        assertThat(header.status()).isEqualTo(2);
        assertThat(header.err()).contains("needs columns operator and measured_us, its header is [name, us]");
        Files.writeString(csv, "\uFEFF\"operator\", measured_us\r\n\"q_proj\",\"3000\"\r\n");
        assertThat(MainTest.run("report", "llama-3-8b", "--measured-times", csv.toString())
                        .status())
                .isZero();
        Files.writeString(csv, "operator,measured_us\nq_proj,3,000\n");
        assertThat(MainTest.run("report", "llama-3-8b", "--measured-times", csv.toString())
                        .err())
                .contains("line 2 of '" + csv + "' has 3 cells, its header 2");
        Files.writeString(csv, "operator,measured_us\nq_proj,1\nq_proj,2\n");
        assertThat(MainTest.run("report", "llama-3-8b", "--measured-times", csv.toString())
                        .err())
                .contains("operator q_proj is given twice");
        Files.writeString(csv, "operator,measured_us\nq_proj,-1\n");
        assertThat(MainTest.run("report", "llama-3-8b", "--measured-times", csv.toString())
                        .err())
                .contains("line 2 of '" + csv + "': measured_us must be > 0, got -1.0");
    }

    @Test
    void measuredTimesAndACalibrationAreOneOrTheOther(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("times.csv");
        Files.writeString(csv, "operator,measured_us\nq_proj,3000\n");
        Path cal = dir.resolve("cal.json");
        Files.writeString(cal, """
                {"device": "NVIDIA H100", "date": "2026-11-25", "source": "by hand", "copyBytesPerSecond": 3.0E12,
                 "launchSeconds": 1.5E-6, "kernelsPerLayer": 10, "kernelsPerModel": 2, "efficiencies": {}}
                """);
        MainTest.Run r = MainTest.run(
                "report", "llama-3-8b", "--calibration", cal.toString(), "--measured-times", csv.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("give --measured-times or --measured without it");
        Document d = Jsoup.parse(MainTest.run("report", "llama-3-8b", "--calibration", cal.toString())
                .out());
        assertThat(d.select("circle[fill=none] > title").first().text()).contains("calibrated: ");
    }
}
