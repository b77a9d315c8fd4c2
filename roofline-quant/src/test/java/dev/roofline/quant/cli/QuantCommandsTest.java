package dev.roofline.quant.cli;

import dev.roofline.core.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** With roofline-quant on the path the dispatcher gains {@code quantize} and {@code advise}. */
class QuantCommandsTest {
    @TempDir
    Path dir;

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

    @Test
    void theListingHasQuantizeAndAdviseAndStillNamesRooflineCuda() {
        Run r = run("--help");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .containsPattern("(?m)^  quantize +")
                .containsPattern("(?m)^  advise +")
                .containsPattern("(?m)^  predict +")
                .contains(
                        "not on the class path: measure, gemv-bench, attention-bench, decode, validate, nccl-bench, tp-decode (add roofline-cuda)\n");
    }

    @Test
    void helpPrintsEachCommandsOptions() {
        Run q = run("quantize", "--help");
        assertThat(q.status()).isZero();
        assertThat(q.out())
                .startsWith("usage: roofline quantize <model-dir> <out-dir> [options]\n")
                .contains("--format F")
                .contains("(default nvfp4)")
                .contains("--exclude NAME,... (repeatable)");
        Run a = run("advise", "-h");
        assertThat(a.status()).isZero();
        assertThat(a.out())
                .startsWith("usage: roofline advise <model-dir> [options]\n")
                .contains("--min-sqnr DB");
    }

    @Test
    void usageErrorsNameTheOption() {
        Run r = run("advise", "x", "--phase", "train");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err())
                .startsWith("roofline advise: --phase must be decode or prefill, got 'train'\nusage: roofline advise");
        Run f = run("quantize", "a", "b", "--format", "fp8", "--four-over-six");
        assertThat(f.status()).isEqualTo(2);
        assertThat(f.err()).startsWith("roofline quantize: fourOverSix applies to NVFP4 targets");
    }

    @Test
    void aMissingCheckpointIsADataErrorOnOneLine() {
        Run r = run("advise", dir.resolve("missing").toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).startsWith("roofline advise: ").contains("missing").hasLineCount(1);
    }
}
