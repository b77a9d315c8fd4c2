package dev.roofline.cuda.cli;

import dev.roofline.core.cli.Main;
import dev.roofline.cuda.Cuda;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

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
    void badOptionsFail() {
        String[] r = run("--frobnicate");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[2]).contains("unknown option --frobnicate");
        assertThat(run("--hw", "tpu")[2]).contains("unknown hardware 'tpu'");
    }
}
