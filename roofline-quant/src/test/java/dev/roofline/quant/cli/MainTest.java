package dev.roofline.quant.cli;

import dev.roofline.core.cli.Main;
import dev.roofline.quant.checkpoint.TinyLlama;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class MainTest {
    @TempDir
    Path dir;

    private String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {
            Integer.toString(rc), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
        };
    }

    @Test
    void quantizesAndAdvises() throws Exception {
        Path model = dir.resolve("tiny");
        TinyLlama.write(model);
        String[] q = run("quantize", model.toString(), dir.resolve("out").toString(), "--format", "fp8-channel");
        assertThat(q[0]).isEqualTo("0");
        assertThat(q[1]).contains("[14/14]").contains("wrote");
        String[] a = run(
                "advise",
                model.toString(),
                "--hw",
                "h100",
                "--min-sqnr",
                "25",
                "--formats",
                "fp8,nvfp4",
                "--compare",
                "int8");
        assertThat(a[0]).as(a[2]).isEqualTo("0");
        assertThat(a[1])
                .contains("on H100 SXM; SQNR budget 25.0 dB")
                .contains("| model.layers.0.mlp.gate_proj.weight | 128 x 64 |");
    }

    @Test
    void badArgumentsExitWithUsage() {
        String[] r = run("quantize", "a");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[2]).contains("quantize needs <model-dir> <out-dir>").contains("usage:");
        assertThat(run("advise", "x", "--batch", "0")[2]).contains("--batch must be a positive integer, got '0'");
        assertThat(run("quantize", "a", "b", "--format", "int3")[2]).contains("--format must be nvfp4");
        assertThat(run("frobnicate")[2]).contains("unknown command 'frobnicate'");
        assertThat(run("advise", dir.resolve("missing").toString())[0]).isEqualTo("1");
    }
}
