package dev.roofline.cuda.cli;

import dev.roofline.cuda.Cuda;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code roofline decode-bench}: its help, a model it cannot run, and one line without a GPU. */
class DecodeBenchCommandTest {

    @Test
    void helpNamesTheOperandAndTheOptions() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("decode-bench", "--help");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .startsWith("usage: roofline decode-bench [model|config.json] [options]\n")
                .contains("--weights F[,F...]")
                .contains("--context T[,T...]");
    }

    @Test
    void anUnknownModelIsNamed() {
        assumeFalse(Cuda.isAvailable(), "a GPU is present: the command would measure");
        MeasureCommandTest.Run r = MeasureCommandTest.run("decode-bench", "no-such-model");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("roofline decode-bench: ")
                .contains("no-such-model")
                .hasLineCount(1);
    }

    @Test
    void withoutAGpuItFailsOnOneLine() {
        assumeFalse(Cuda.isAvailable(), "a GPU is present: the command would measure");
        MeasureCommandTest.Run r = MeasureCommandTest.run("decode-bench", "--weights", "NVFP4");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).endsWith(" - nothing measured\n").hasLineCount(1);
    }
}
