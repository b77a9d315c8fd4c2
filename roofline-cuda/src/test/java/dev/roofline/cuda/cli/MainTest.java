package dev.roofline.cuda.cli;

import dev.roofline.core.cli.Main;
import dev.roofline.cuda.Cuda;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

class MainTest {

    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(
                measure(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {
            Integer.toString(rc), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
        };
    }

    private static String[] measure(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "measure";
        System.arraycopy(args, 0, all, 1, args.length);
        return all;
    }

    @Test
    void withoutAGpuItSaysWhyAndStillPredicts() {
        assumeFalse(Cuda.isAvailable(), "a GPU is present: the command would measure");
        String[] r = run();
        assertThat(r[0]).isEqualTo("0");
        assertThat(r[1])
                .startsWith("GEMV M=1 N=4096 K=4096 on GB10: 273 GB/s")
                .contains("no CUDA device")
                .contains("nothing measured")
                .contains("Predictions only, for H200");
    }

    @Test
    void hwChoosesTheCalculatorsHardwareToo() {
        assumeFalse(Cuda.isAvailable(), "a GPU is present: the command would measure");
        String[] r = run("--hw", "h100");
        assertThat(r[1])
                .startsWith("GEMV M=1 N=4096 K=4096 on H100 SXM: 3350 GB/s")
                .contains("Predictions only, for H100 SXM");
    }

    @Test
    void csvWithoutAGpuWritesThePredictionsItPrints(@TempDir Path dir) throws IOException {
        assumeFalse(Cuda.isAvailable(), "a GPU is present: the command would measure");
        Path csv = dir.resolve("predictions.csv");
        String[] r = run("--hw", "h100", "--csv", csv.toString());
        assertThat(r[0]).isEqualTo("0");
        assertThat(r[1]).contains("CSV (predictions only, no GPU): " + csv);
        List<String> lines = Files.readAllLines(csv);
        // 5 shapes x 4 precisions, in the order printed
        assertThat(lines).hasSize(1 + 20);
        assertThat(lines.getFirst()).isEqualTo("precision,output,m,n,k,predicted_us,tflops,bound");
        // FP16 GEMV 1x8192x8192 on H100 SXM (3.35 TB/s): 8192*8192*2 weight + 8192*2 input + 8192*2 output bytes =
        // 134,250,496 B / 3.35e12 B/s = 40.075 us; 2*8192*8192 FLOP / 40.0748 us = 3.349 TFLOPS
        assertThat(lines.get(1)).isEqualTo("FP16,FP16,1,8192,8192,40.075,3.349,memory");
        // the same figures as the text table printed above it
        assertThat(r[1]).containsPattern("FP16 -> FP16 +1x8192x8192 +40\\.07 +3\\.3 +memory");
        assertThat(dir.toFile().list()).containsExactly("predictions.csv"); // no temporary file left behind
    }

    @Test
    void csvInAMissingFolderIsAUsageErrorBeforeAnyWork(@TempDir Path dir) {
        Path csv = dir.resolve("no-such-folder").resolve("out.csv");
        String[] r = run("--csv", csv.toString());
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1]).isEmpty();
        assertThat(r[2])
                .startsWith("roofline measure: --csv " + csv + ": no such directory " + dir.resolve("no-such-folder"));
    }

    @Test
    void csvNamingADirectoryIsAUsageError(@TempDir Path dir) {
        String[] r = run("--csv", dir.toString());
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[2]).startsWith("roofline measure: --csv " + dir + " is a directory; give a file name");
    }

    @Test
    void hwWithoutAValueIsAUsageErrorNamingIt() {
        String[] r = run("--hw");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1]).isEmpty();
        assertThat(r[2]).startsWith("roofline measure: --hw needs a value (NAME)\nusage: roofline measure");
    }

    @Test
    void theHelpSaysWhatCsvWritesWithoutAGpu() {
        String[] r = run("--help");
        assertThat(r[0]).isEqualTo("0");
        assertThat(r[1]).contains("--csv FILE  also write the sweep as CSV; without a GPU, the predictions printed");
    }

    @Test
    void badOptionsFail() {
        String[] r = run("--frobnicate");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[2]).contains("unknown option --frobnicate");
        assertThat(run("--hw", "tpu")[2]).contains("unknown hardware 'tpu'");
    }
}
