package dev.roofline.core.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MainTest {

    record Run(int status, String out, String err) {}

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Table rows keyed by precision name (first column may contain one space, e.g. "FP8 E4M3"). */
    static Map<String, String[]> rows(String table) {
        return table.lines()
                .filter(l -> l.matches("^(FP16|FP8 E4M3|INT8|INT4|NVFP4|MXFP4|BF16)\\s.*"))
                .map(l -> l.replaceFirst("^FP8 E4M3", "FP8_E4M3").trim().split("\\s{2,}"))
                .collect(Collectors.toMap(c -> c[0], Function.identity()));
    }

    @Test
    void defaultTableIsGemv4096OnGb10AcrossSixPrecisions() {
        Run r = run("predict");
        assertThat(r.status()).isZero();
        assertThat(r.out()).startsWith("GEMV M=1 N=4096 K=4096 on GB10: 273 GB/s");
        Map<String, String[]> rows = rows(r.out());
        assertThat(rows).containsOnlyKeys("FP16", "FP8_E4M3", "INT8", "INT4", "NVFP4", "MXFP4");

        // hand calculation, 273e9 B/s; activations in the row's precision, FP16 output
        double fp16Bytes = (4096.0 * 4096 + 4096) * 2 + 4096 * 2; // 33,570,816
        double fp8Bytes = 4096.0 * 4096 + 4096 + 4096 * 2; // 16,789,504
        double int4Bytes = (4096.0 * 4096 + 4096) / 2 + 4096 * 2; //  8,398,848
        // a block-scaled activation row reads its scales in 128-row tiles (ScaleTiles): 128 x 256 NVFP4 scales,
        // 128 x 128 MXFP4 ones
        double nvfp4Bytes = 4096.0 * 4096 / 2
                + 4096.0 * 4096 / 16
                + 4 // weights
                + 4096 / 2
                + 128 * 256
                + 4
                + 4096 * 2; // activations + output
        double mxfp4Bytes = 4096.0 * 4096 / 2 + 4096.0 * 4096 / 32 + 4096 / 2 + 128 * 128 + 4096 * 2;
        assertRow(rows.get("FP16"), fp16Bytes, "memory", 1.0);
        assertRow(rows.get("FP8_E4M3"), fp8Bytes, "memory", fp16Bytes / fp8Bytes);
        assertRow(rows.get("INT8"), fp8Bytes, "memory", fp16Bytes / fp8Bytes);
        assertRow(rows.get("INT4"), int4Bytes, "memory", fp16Bytes / int4Bytes);
        assertRow(rows.get("NVFP4"), nvfp4Bytes, "memory", fp16Bytes / nvfp4Bytes);
        assertRow(rows.get("MXFP4"), mxfp4Bytes, "memory", fp16Bytes / mxfp4Bytes);
        assertThat(Double.parseDouble(rows.get("FP16")[5])).isCloseTo(122.97, within(0.005));
        // GB10 has no INT4 tensor cores: the table says so
        assertThat(rows.get("INT4")[8]).isEqualTo("FP16 (fallback)");
        assertThat(r.out()).contains("note: INT4: no INT4 path on GB10");
    }

    private static void assertRow(String[] row, double bytes, String bound, double speedup) {
        assertThat(Long.parseLong(row[1])).as(row[0] + " bytes").isEqualTo((long) bytes);
        assertThat(Long.parseLong(row[2])).as(row[0] + " FLOPs").isEqualTo(2L * 4096 * 4096);
        assertThat(Double.parseDouble(row[3]))
                .as(row[0] + " FLOP/B")
                .isCloseTo(2.0 * 4096 * 4096 / bytes, within(0.005));
        assertThat(row[4]).isEqualTo(bound);
        assertThat(Double.parseDouble(row[5])).as(row[0] + " us").isCloseTo(bytes / 273e9 * 1e6, within(0.005));
        assertThat(Double.parseDouble(row[7].replace("x", "")))
                .as(row[0] + " speedup")
                .isCloseTo(speedup, within(0.005));
    }

    @Test
    void flagsChooseHardwareShapeAndPrecisions() {
        Run r = run("predict", "--hw", "h100", "--shape", "8192x8192x8192", "--precisions", "bf16,fp8");
        assertThat(r.status()).isZero();
        assertThat(r.out()).startsWith("GEMM M=8192 N=8192 K=8192 on H100 SXM: 3350 GB/s");
        Map<String, String[]> rows = rows(r.out());
        assertThat(rows.get("BF16")[4]).isEqualTo("compute");
        // 2 * 8192^3 / 989.5e12 s
        assertThat(Double.parseDouble(rows.get("BF16")[5]))
                .isCloseTo(2.0 * Math.pow(8192, 3) / 989.5e12 * 1e6, within(0.005));
        assertThat(Double.parseDouble(rows.get("FP8_E4M3")[5]))
                .isCloseTo(2.0 * Math.pow(8192, 3) / 1979e12 * 1e6, within(0.005));
    }

    @Test
    void activationsCanBePinnedForWeightOnlyQuantization() {
        Run r = run("predict", "--precisions", "int4", "--activations", "fp16");
        Map<String, String[]> rows = rows(r.out());
        assertThat(Long.parseLong(rows.get("INT4")[1])).isEqualTo(4096L * 4096 / 2 + 4096 * 2 + 4096 * 2);
        assertThat(rows.get("INT4")[8]).isEqualTo("FP16");
    }

    @Test
    void listsHardwareWithSourcesAndPrecisions() {
        Run hw = run("hardware");
        assertThat(hw.status()).isZero();
        assertThat(hw.out())
                .contains("GB10 (b10")
                .contains("273 GB/s")
                .contains("with-sparsity")
                .contains("[uncertain]");
        Run p = run("precisions");
        assertThat(p.out()).contains("NVFP4").contains("E4M3+FP32 tensor").contains("448.000");
    }

    @Test
    void badArgumentsPrintUsageAndFail() {
        for (String[] args : new String[][] {
            {"--shape", "1x0x4096"}, {"--shape", "4096"}, {"--hw", "tpu"}, {"--precisions", "fp7"},
            {"--efficiency", "1.2,1"}, {"--efficiency", "nan,1"}, {"--bogus"}, {"--hw"}
        }) {
            Run r = run(predict(args));
            assertThat(r.status()).as(Arrays.toString(args)).isEqualTo(2);
            assertThat(r.err()).as(Arrays.toString(args)).contains("usage: roofline");
            assertThat(r.out()).isEmpty();
        }
        assertThat(run("predict", "--shape", "1x0x4096").err()).contains("--shape N must be > 0, got 0");
        assertThat(run("predict", "--hw", "tpu").err()).contains("unknown hardware 'tpu'");
        assertThat(run("predict", "--efficiency", "1.2,1").err())
                .contains("--efficiency bandwidth must be in (0, 1], got 1.2");
    }

    @Test
    void anEfficiencyThatLeavesNoPhysicalRateIsAUsageError() {
        Run r = run("predict", "--efficiency", "1e-300,1");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err())
                .startsWith("roofline predict: --efficiency: bandwidthEfficiency 1.0E-300 leaves GB10 2.73E-289 B/s")
                .contains("below the physical floor of 1 GB/s")
                .contains("usage: roofline predict");
    }

    private static String[] predict(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "predict";
        System.arraycopy(args, 0, all, 1, args.length);
        return all;
    }

    @Test
    void shapesThatOverflowAreReportedNotThrown() {
        Run r = run("predict", "--shape", "4194304x4194304x4194304");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("overflows a long");
    }
}
