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
}
