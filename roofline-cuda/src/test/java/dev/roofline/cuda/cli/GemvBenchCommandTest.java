package dev.roofline.cuda.cli;

import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.bench.GemvBenchmarkOptions;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code roofline gemv-bench}: listed beside measure, its help, its usage errors and the options it builds. */
class GemvBenchCommandTest {

    private static MeasureCommandTest.Run run(String... args) {
        return MeasureCommandTest.run(args);
    }

    @Test
    void theListingHasGemvBench() {
        assertThat(run("--help").out()).containsPattern("(?m)^  gemv-bench +roofline's GEMV kernels");
    }

    @Test
    void helpPrintsTheOptions() {
        MeasureCommandTest.Run r = run("gemv-bench", "--help");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .startsWith("usage: roofline gemv-bench [options]\n")
                .contains("--formats F[,F...]")
                .contains("--shape NxK")
                .contains("--rows M[,M...]")
                .contains("--no-cublas")
                .contains("--no-layer")
                .contains("--csv FILE")
                .contains("--markdown FILE")
                .contains("8192x8192, 28672x8192, 8192x28672");
    }

    @Test
    void anUnknownFormatIsAUsageErrorNamingIt() {
        MeasureCommandTest.Run r = run("gemv-bench", "--formats", "NVFP4,FP5");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err())
                .startsWith("roofline gemv-bench: --formats: ")
                .contains("FP5")
                .contains("usage: roofline gemv-bench");
    }

    @Test
    void aMalformedShapeIsAUsageErrorNamingIt() {
        MeasureCommandTest.Run r = run("gemv-bench", "--shape", "8192by8192");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline gemv-bench: --shape").contains("8192by8192");
    }

    @Test
    void rowsOverTheKernelsThirtyTwoAreAUsageErrorNamingThem() {
        MeasureCommandTest.Run r = run("gemv-bench", "--rows", "1,33");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline gemv-bench: --rows").contains("33");
    }

    @Test
    void aRepetitionCountMustBePositive() {
        MeasureCommandTest.Run r = run("gemv-bench", "--repetitions", "0");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline gemv-bench: --repetitions must be a positive integer, got '0'");
    }

    @Test
    void withoutAGpuItFailsOnOneLine() {
        assumeFalse(Cuda.isAvailable(), "a GPU is present: the command would measure");
        MeasureCommandTest.Run r = run("gemv-bench", "--formats", "NVFP4");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("roofline gemv-bench: ")
                .endsWith(" - nothing measured\n")
                .hasLineCount(1);
        assertThat(r.out()).isEmpty();
    }

    @Test
    void theOptionsNarrowTheBenchmark() {
        GemvBenchmarkOptions all = GemvBenchCommand.options(GemvBenchCommandTest.parse());
        assertThat(all.formats()).containsExactly(WeightFormat.values());
        assertThat(all.shapes()).isEqualTo(GemvBenchmarkOptions.DEFAULT_SHAPES);
        assertThat(all.cublasBaseline()).isTrue();
        assertThat(all.decodeLayer()).isTrue();

        GemvBenchmarkOptions some = GemvBenchCommand.options(GemvBenchCommandTest.parse(
                "--formats",
                "nvfp4,MXFP4",
                "--shape",
                "4096x1024",
                "--shape",
                "256x4096",
                "--no-cublas",
                "--no-layer",
                "--repetitions",
                "7"));
        assertThat(some.formats()).containsExactly(WeightFormat.NVFP4, WeightFormat.MXFP4);
        assertThat(some.shapes())
                .containsExactly(new GemvBenchmarkOptions.Shape(4096, 1024), new GemvBenchmarkOptions.Shape(256, 4096));
        assertThat(some.cublasBaseline()).isFalse();
        assertThat(some.decodeLayer()).isFalse();
        assertThat(some.timing().repetitions()).isEqualTo(7);
    }

    private static dev.roofline.core.cli.Arguments parse(String... args) {
        return dev.roofline.core.cli.Arguments.parse(new GemvBenchCommand(), List.of(args));
    }
}
