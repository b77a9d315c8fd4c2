package dev.roofline.core.cli;

import dev.roofline.core.hardware.Hardware;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** {@code --calibration FILE} on model, recommend and plot: calibrated times, said once, and bad files refused. */
class CalibrationOptionTest {

    static final String NOTICE = "calibrated: measured on NVIDIA H200 2026-11-24 (test run)\n";

    @TempDir
    Path dir;

    /**
     * A calibration file with the given copy bandwidth and launch cost, 10 kernels a layer and 2 around them, and no
     * fixed times (as files were written before they existed).
     */
    private String file(double copyBytesPerSecond, double launchSeconds, String efficiencies) throws IOException {
        return file(copyBytesPerSecond, launchSeconds, efficiencies, "");
    }

    /** As {@link #file(double, double, String)}, then {@code fields} (more JSON fields, each with a leading comma). */
    private String file(double copyBytesPerSecond, double launchSeconds, String efficiencies, String fields)
            throws IOException {
        Path f = Files.createTempFile(dir, "h200-", ".json");
        Files.writeString(f, String.format(Locale.ROOT, """
                {"device": "NVIDIA H200", "date": "2026-11-24", "source": "test run",
                 "copyBytesPerSecond": %s, "launchSeconds": %s, "kernelsPerLayer": 10, "kernelsPerModel": 2,
                 "efficiencies": {%s}%s}
                """, copyBytesPerSecond, launchSeconds, efficiencies, fields));
        return f.toString();
    }

    private static double millis(String out) {
        Matcher m = Pattern.compile("time ([0-9.]+) ms").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static MainTest.Run model(String... extra) {
        String[] args = new String[5 + extra.length];
        System.arraycopy(new String[] {"model", "llama-3-8b", "--hw", "h200", "--context=1024"}, 0, args, 0, 5);
        System.arraycopy(extra, 0, args, 5, extra.length);
        MainTest.Run r = MainTest.run(args);
        assertThat(r.status()).as(r.err()).isZero();
        return r;
    }

    @Test
    void modelAddsTheLaunchesToTheRooflineOnTheMeasuredCopy() throws IOException {
        double datasheet = millis(model().out());
        double bw = Hardware.H200.memoryBytesPerSecond();
        // every class at 1 on the datasheet bandwidth: the plain roofline plus 322 launches of 1 µs = 0.322 ms
        String all = "\"gemv FP16\": 1, \"attention\": 1, \"elementwise\": 1";
        MainTest.Run same = model("--calibration", file(bw, 1e-6, all));
        assertThat(millis(same.out())).isCloseTo(datasheet + 0.322, within(0.0011));
        // half the bandwidth: every operator of a batch-1 decode is memory-bound, so twice the time, then the launches
        MainTest.Run half = model("--calibration", file(bw / 2, 1e-6, all));
        assertThat(millis(half.out())).isCloseTo(2 * datasheet + 0.322, within(0.0021));
        assertThat(half.out())
                .contains("\n" + NOTICE)
                .contains("measured copy 2400 GB/s; 322 kernel launches x 1.00 us = 0.322 ms of the ")
                .containsPattern("kernel launches +322 +0 +0 +launch +322\\.000")
                .doesNotContain("uncalibrated");
        assertThat(half.out().split("calibrated: ", -1)).hasSize(2);
    }

    @Test
    void modelAddsEachClassesFixedTimeAndSaysSo() throws IOException {
        double datasheet = millis(model().out());
        double bw = Hardware.H200.memoryBytesPerSecond();
        String all = "\"gemv FP16\": 1, \"attention\": 1, \"elementwise\": 1";
        String fixed = ", \"fixedSeconds\": {\"attention\": 6E-6, \"gemv FP16\": 0}";
        MainTest.Run r = model("--calibration", file(bw, 1e-6, all, fixed));
        // the plain roofline, 322 launches of 1 µs = 0.322 ms, and 32 attentions of 6 µs = 0.192 ms
        assertThat(millis(r.out())).isCloseTo(datasheet + 0.322 + 0.192, within(0.0011));
        assertThat(r.out())
                .contains("322 kernel launches x 1.00 us = 0.322 ms of the ")
                .contains("\nfixed time per operator: attention 6.00 us x 32 = 0.192 ms\n")
                .doesNotContain("gemv FP16 0.00");
        // a file without the field, or with zeros only, adds no fixed time and says nothing of it
        assertThat(model("--calibration", file(bw, 1e-6, all)).out()).doesNotContain("fixed time");
        assertThat(model("--calibration", file(bw, 1e-6, all, ", \"fixedSeconds\": {\"attention\": 0}"))
                        .out())
                .doesNotContain("fixed time");
    }

    @Test
    void modelListsTheClassesItHadNoFigureFor() throws IOException {
        MainTest.Run r = model("--weights", "nvfp4", "--calibration", file(4.3e12, 2e-6, "\"gemv FP16\": 0.97"));
        assertThat(r.out())
                .contains(
                        NOTICE + "uncalibrated classes, priced at the measured copy bandwidth: attention, elementwise,"
                                + " gemv NVFP4\n");
    }

    @Test
    void withoutACalibrationNothingSaysCalibrated() {
        assertThat(model().out()).doesNotContain("calibrated").doesNotContain("kernel launches");
    }

    @Test
    void csvKeepsStandardOutputMachineReadableAndMarkdownSaysItFirst() throws IOException {
        String f = file(4.3e12, 2e-6, "\"gemv FP16\": 0.97");
        MainTest.Run csv = model("--format", "csv", "--calibration", f);
        assertThat(csv.out()).startsWith("operator,count,").contains("\r\nkernel launches,322,0,0,,launch,644.000,");
        assertThat(csv.err()).startsWith(NOTICE).contains("uncalibrated classes");
        MainTest.Run md = model("--format", "markdown", "--calibration", f);
        assertThat(md.out()).startsWith(NOTICE).contains("| kernel launches | 322 |");
    }

    @Test
    void recommendRanksByCalibratedTimes() throws IOException {
        // INT8 weights are half the bytes, but at 0.4 of the copy against FP16's 1.0 they take 1.25x as long
        String f = file(4.3e12, 2e-6, "\"gemv FP16\": 1, \"gemv INT8\": 0.4, \"attention\": 1, \"elementwise\": 1");
        MainTest.Run r = MainTest.run("recommend", "llama-3-8b", "--hw", "h200", "--allow", "int8", "--calibration", f);
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out())
                .startsWith("Llama-3-8B on H200: use W FP16, A FP16, KV FP16 (1.00x vs FP16)\n" + NOTICE
                        + "uncalibrated classes, priced at the measured copy bandwidth: gemv BF16\n");
        MainTest.Run plain = MainTest.run("recommend", "llama-3-8b", "--hw", "h200", "--allow", "int8");
        assertThat(plain.out()).startsWith("Llama-3-8B on H200: use W INT8").doesNotContain("calibrated");
    }

    @Test
    void plotDrawsTheMeasuredCopyAndSaysSo() throws IOException {
        String f = file(4.291e12, 2e-6, "\"gemv FP16\": 0.97");
        Path svg = dir.resolve("r.svg");
        MainTest.Run r =
                MainTest.run("plot", "llama-3-8b", "--hw", "h200", "--calibration", f, "--out", svg.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).startsWith(NOTICE).contains("wrote " + svg);
        assertThat(Files.readString(svg))
                .contains(">DRAM 4291 GB/s, measured copy</text>")
                .contains("calibrated on NVIDIA H200 2026-11-24</text>");
        MainTest.Run stdout = MainTest.run("plot", "llama-3-8b", "--hw", "h200", "--calibration", f);
        assertThat(stdout.out()).startsWith("<svg ").endsWith("</svg>\n");
        assertThat(stdout.err()).startsWith(NOTICE);
        assertThat(MainTest.run("plot", "llama-3-8b", "--hw", "h200").out()).contains(">DRAM 4800 GB/s</text>");
    }

    @Test
    void aMissingOrInvalidFileIsAUsageErrorNamingIt() throws IOException {
        Path missing = dir.resolve("none.json");
        MainTest.Run r = MainTest.run("model", "llama-3-8b", "--calibration", missing.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err())
                .startsWith("roofline model: --calibration: calibration file '" + missing + "' does not exist\n")
                .contains("usage: roofline model|recommend|plot");
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"device\": \"NVIDIA H200\"}");
        MainTest.Run b = MainTest.run("recommend", "llama-3-8b", "--calibration", bad.toString());
        assertThat(b.status()).isEqualTo(2);
        assertThat(b.err())
                .startsWith("roofline recommend: --calibration: " + bad + ": field \"date\" is missing\n")
                .doesNotContain("\tat ");
        Files.writeString(bad, "not json");
        assertThat(MainTest.run("plot", "llama-3-8b", "--calibration", bad.toString())
                        .err())
                .startsWith("roofline plot: --calibration: " + bad + ": not valid JSON: JSON line 1 column 1");
    }
}
