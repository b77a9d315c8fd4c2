package dev.roofline.core.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The dispatcher's contract with only roofline-core on the path: listing, help, exit statuses, one-line errors. */
class CommandLineTest {

    static final List<String> CORE_COMMANDS =
            List.of("hardware", "model", "plot", "precisions", "predict", "recommend", "report", "serve");

    @Test
    void discoversExactlyCoresCommandsWhenAlone() {
        assertThat(Main.installed(System.err).keySet()).containsExactlyElementsOf(CORE_COMMANDS);
    }

    @Test
    void noCommandListsTheCommandsAndTheJarsThatAddTheOthers() {
        MainTest.Run r = MainTest.run();
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("usage: roofline <command> [options]");
        for (String c : CORE_COMMANDS) {
            assertThat(r.err()).containsPattern("(?m)^  " + c + " +\\S");
        }
        assertThat(r.err())
                .contains(
                        "not on the class path: measure, gemv-bench, attention-bench, decode, validate, nccl-bench, tp-decode (add roofline-cuda); quantize, advise (add roofline-quant)");
    }

    @Test
    void helpListsTheCommandsOnStandardOutput() {
        MainTest.Run r = MainTest.run("--help");
        assertThat(r.status()).isZero();
        assertThat(r.out()).startsWith("usage: roofline <command> [options]").contains("  predict  ");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void aCommandFromAnAbsentJarSaysWhichJar() {
        MainTest.Run r = MainTest.run("measure");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("roofline: measure comes with roofline-cuda, which is not on the class path\n");
    }

    @Test
    void anUnknownCommandIsAUsageError() {
        MainTest.Run r = MainTest.run("frobnicate");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline: unknown command 'frobnicate'\nusage: roofline <command>");
    }

    @Test
    void everyCommandPrintsItsUsageOnHelp() {
        for (String c : CORE_COMMANDS) {
            MainTest.Run r = MainTest.run(c, "--help");
            assertThat(r.status()).as(c).isZero();
            assertThat(r.out())
                    .as(c)
                    .startsWith("usage: roofline ")
                    .contains(c)
                    .contains("  --help")
                    .contains("  --debug");
            assertThat(r.err()).as(c).isEmpty();
        }
        assertThat(MainTest.run("predict", "-h").out())
                .contains("--shape MxNxK")
                .contains("(default 1x4096x4096)");
    }

    @Test
    void anUnknownOptionIsAUsageErrorNamingIt() {
        for (String c : CORE_COMMANDS) {
            String[] args = c.equals("model") || c.equals("recommend") || c.equals("plot") || c.equals("serve")
                    ? new String[] {c, "mistral-7b", "--bogus"}
                    : new String[] {c, "--bogus"};
            MainTest.Run r = MainTest.run(args);
            assertThat(r.status()).as(c).isEqualTo(2);
            assertThat(r.err()).as(c).startsWith("roofline " + c + ": unknown option --bogus\nusage: roofline ");
            assertThat(r.out()).as(c).isEmpty();
        }
    }

    @Test
    void aMissingValueIsAUsageErrorNamingTheOption() {
        MainTest.Run r = MainTest.run("predict", "--precisions", "fp16", "--hw");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline predict: --hw needs a value (NAME)\n");
        assertThat(MainTest.run("predict", "--hw", "--shape", "1x8x8").err())
                .startsWith("roofline predict: --hw needs a value");
        assertThat(MainTest.run("predict", "--hw=").err()).startsWith("roofline predict: --hw needs a value");
    }

    @Test
    void aBadEnumNameIsAUsageErrorNamingOptionAndValue() {
        MainTest.Run r = MainTest.run("model", "mistral-7b", "--weights", "fp7");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline model: --weights: unknown precision 'fp7'");
    }

    @Test
    void optionsTakeTheirValueAfterAnEqualsSignToo() {
        MainTest.Run spaced = MainTest.run("predict", "--hw", "h100", "--shape", "16x4096x4096");
        MainTest.Run joined = MainTest.run("predict", "--hw=h100", "--shape=16x4096x4096");
        assertThat(joined.status()).isZero();
        assertThat(joined.out()).isEqualTo(spaced.out()).startsWith("GEMM M=16 N=4096 K=4096 on H100 SXM");
    }

    @Test
    void aFlagTakesNoValueAndOperandsAreCounted() {
        assertThat(MainTest.run("model", "mistral-7b", "--no-flash=yes").err())
                .startsWith("roofline model: --no-flash takes no value, got 'yes'");
        MainTest.Run extra = MainTest.run("predict", "4096");
        assertThat(extra.status()).isEqualTo(2);
        assertThat(extra.err()).startsWith("roofline predict: unexpected argument '4096': predict takes options only");
        assertThat(MainTest.run("model", "mistral-7b", "llama-3-8b").err())
                .startsWith("roofline model: unexpected argument 'llama-3-8b'");
    }

    @Test
    void aMissingFileIsADataErrorOnOneLine() {
        MainTest.Run r = MainTest.run("model", "missing.json");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("roofline model: model config 'missing.json' does not exist\n");
    }

    @Test
    void anUnwritableOutputIsADataErrorOnOneLine(@TempDir Path dir) {
        Path out = dir.resolve("no-such-dir").resolve("r.svg");
        MainTest.Run r = MainTest.run("plot", "mistral-7b", "--out", out.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("roofline plot: cannot write " + out)
                .endsWith("\n")
                .hasLineCount(1);
    }

    @Test
    void anInvalidConfigIsADataErrorOnOneLine(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("config.json");
        java.nio.file.Files.writeString(config, "{\"model_type\": \"llama\"");
        MainTest.Run r = MainTest.run("model", config.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).startsWith("roofline model: ").hasLineCount(1);
    }

    @Test
    void anUnexpectedExceptionIsOneLineWithoutTrace() {
        Command broken = command(args -> {
            throw new NullPointerException("widget");
        });
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(
                broken,
                List.of(),
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("roofline broken: NullPointerException: widget\n");
    }

    @Test
    void aMissingFileIsNamedAsMissing() {
        assertThat(Main.oneLine(new java.nio.file.NoSuchFileException("/no/such/config.json")))
                .isEqualTo("no such file or directory: /no/such/config.json");
        assertThat(Main.oneLine(new java.nio.file.AccessDeniedException("/root/secret.json")))
                .isEqualTo("permission denied: /root/secret.json");
        assertThat(Main.oneLine(new java.nio.file.NoSuchFileException(
                        "/models/empty", null, "neither model.safetensors.index.json nor model.safetensors")))
                .isEqualTo("no such file or directory: /models/empty"
                        + " (neither model.safetensors.index.json nor model.safetensors)");
    }

    @Test
    void anErrorOfTheJvmIsOneLineToo() {
        Command broken = command(args -> {
            throw new StackOverflowError();
        });
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(
                broken,
                List.of(),
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo("roofline broken: StackOverflowError (run with --debug for the stack trace)\n");
    }

    @Test
    void debugAddsTheStackTrace() {
        Command broken = command(args -> {
            throw new IllegalStateException("widget");
        });
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(
                broken,
                List.of("--debug"),
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("roofline broken: widget\njava.lang.IllegalStateException: widget\n")
                .contains("\tat ");
    }

    private static Command command(java.util.function.Consumer<Arguments> body) {
        return new Command() {
            @Override
            public String name() {
                return "broken";
            }

            @Override
            public String summary() {
                return "fails";
            }

            @Override
            public List<Option<?>> options() {
                return List.of();
            }

            @Override
            public void run(Arguments args, PrintStream out, PrintStream err) {
                body.accept(args);
            }
        };
    }
}
