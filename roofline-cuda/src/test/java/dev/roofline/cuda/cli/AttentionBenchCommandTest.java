package dev.roofline.cuda.cli;

import dev.roofline.cuda.Cuda;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code roofline attention-bench}: listed, its help, its usage errors, and one line without a GPU. */
class AttentionBenchCommandTest {

    @Test
    void helpPrintsTheOptionsAndTheirDefaults() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("attention-bench", "--help");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .startsWith("usage: roofline attention-bench [options]\n")
                .contains("--batch B[,B...]")
                .contains("1,8,32")
                .contains("--context T[,T...]")
                .contains("8192,32768")
                .contains("--head-dim D");
        assertThat(MeasureCommandTest.run("--help").out()).containsPattern("(?m)^  attention-bench +roofline's decode");
    }

    @Test
    void headsThatDoNotGroupAreAUsageError() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("attention-bench", "--heads", "30", "--kv-heads", "8");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline attention-bench: --heads 30 must be a multiple of --kv-heads 8\n");
    }

    @Test
    void anUnbuiltHeadSizeIsAUsageError() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("attention-bench", "--head-dim", "96");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline attention-bench: --head-dim must be one of [64, 128], got 96\n");
    }

    @Test
    void aNonPositiveBatchNamesTheOption() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("attention-bench", "--batch", "1,0");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline attention-bench: --batch must be a positive integer, got '0'");
    }

    @Test
    void withoutAGpuItFailsOnOneLine() {
        assumeFalse(Cuda.isAvailable(), "a GPU is present: the command would measure");
        MeasureCommandTest.Run r = MeasureCommandTest.run("attention-bench");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).endsWith(" - nothing measured\n").hasLineCount(1);
    }
}
