package dev.roofline.core.report;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The report opened in headless Chromium (Debian's {@code chromium}; skipped with the reason where none is installed):
 * the page runs with no console error, the chart is drawn with a hover title on every operator point, and a click on
 * a column heading sorts the table. A probe script appended to a copy of the page clicks the "time us" heading and
 * writes what it sees into the document, which Chromium prints ({@code --dump-dom}).
 */
class HtmlReportBrowserIT {

    private static Optional<Path> chromium() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    @Test
    void thePageRendersItsTooltipsAndSortsWithoutAConsoleError(@TempDir Path dir) throws Exception {
        Optional<Path> browser = chromium();
        assumeTrue(browser.isPresent(), "no chromium on PATH (Debian: apt-get install chromium)");
        ModelPrediction p = Transformer.of(Models.LLAMA_3_8B, Hardware.GB10).predict(Workload.decode(1, 8192));
        String html = HtmlReport.titled("Llama-3-8B on GB10")
                .withPrediction("decode", p, List.of(Precision.FP16, Precision.NVFP4))
                .html();
        String probe = """
                <script>
                var th = Array.prototype.find.call(document.querySelectorAll('th'), function (h) {
                  return h.textContent === 'time us'; });
                th.click(); th.click();
                var first = document.querySelector('table.sortable tbody tr td').textContent;
                console.info('probe ran');
                var titles = document.querySelectorAll('svg circle title');
                var q = Array.prototype.find.call(titles, function (t) { return t.textContent.indexOf('q_proj') === 0; });
                var out = document.createElement('pre');
                out.id = 'probe';
                out.textContent = 'first=' + first + ';points=' + titles.length + ';q=' + (q ? 'yes' : 'no')
                    + ';svg=' + document.querySelectorAll('figure svg').length;
                document.body.appendChild(out);
                </script>
                """;
        Path page = dir.resolve("report.html");
        Files.writeString(page, html.replace("</body>", probe + "</body>"), StandardCharsets.UTF_8);
        Process chrome = new ProcessBuilder(
                        browser.get().toString(),
                        "--headless=new",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--enable-logging=stderr",
                        "--v=0",
                        "--dump-dom",
                        page.toUri().toString())
                .redirectError(dir.resolve("stderr.txt").toFile())
                .start();
        String dom = new String(chrome.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(chrome.waitFor(60, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        String console = Files.readString(dir.resolve("stderr.txt"));
        // sorted twice on "time us": descending, so the longest operator (gate_proj, tied with up_proj and down_proj)
        assertThat(dom).containsPattern("first=(gate_proj|up_proj|down_proj);");
        assertThat(dom).contains("q=yes").contains("svg=1");
        long points = p.operators().stream().filter(o -> o.flops() > 0).count();
        assertThat(dom).contains("points=" + points + ";");
        // the console is read: the probe's own message is there, and nothing else the page logged
        assertThat(console).contains("probe ran");
        assertThat(console.lines().filter(l -> l.contains(":CONSOLE") && !l.contains("probe ran")))
                .as("console messages besides the probe's")
                .isEmpty();
        assertThat(console).doesNotContain("Uncaught");
    }
}
