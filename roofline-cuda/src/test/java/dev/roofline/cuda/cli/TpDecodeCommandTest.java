package dev.roofline.cuda.cli;

import dev.roofline.cuda.nccl.Nccl;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code roofline tp-decode}: listed, its help, its usage errors, and one line without NCCL or a GPU. */
class TpDecodeCommandTest {

    @Test
    void helpPrintsTheOptionsAndTheirDefaults() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("tp-decode", "--help");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .startsWith("usage: roofline tp-decode")
                .contains("--gpus N")
                .contains("--calibration FILE")
                .contains("--weights F[,F...]");
        assertThat(MeasureCommandTest.run("--help").out()).containsPattern("(?m)^  tp-decode +a tensor-parallel");
    }

    @Test
    void gpusThatDoNotDivideTheModelAreAUsageError() {
        // Llama-3-8B: 32 heads, 8 KV heads; 3 GPUs divide neither
        MeasureCommandTest.Run r = MeasureCommandTest.run("tp-decode", "llama-3-8b", "--gpus", "3");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline tp-decode: --gpus 3: tensor parallelism 3 must divide heads (32)");
    }

    @Test
    void aBatchTheDecoderCannotRunIsAUsageError() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("tp-decode", "--weights", "FP8_E4M3", "--batch", "33");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("--batch 33: the decoder runs FP8_E4M3 weights at up to 32 sequences");
    }

    @Test
    void withoutNcclItFailsOnOneLine() {
        assumeFalse(Nccl.isAvailable(), "NCCL and a GPU are present: the command would measure");
        MeasureCommandTest.Run r = MeasureCommandTest.run("tp-decode");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).endsWith(" - nothing measured\n").hasLineCount(1);
    }
}
