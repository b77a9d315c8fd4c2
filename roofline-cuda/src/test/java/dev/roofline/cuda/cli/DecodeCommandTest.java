package dev.roofline.cuda.cli;

import dev.roofline.cuda.Cuda;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code roofline decode}: its help, inputs it refuses, and the prediction it prints without a GPU. */
class DecodeCommandTest {

    @Test
    void helpNamesTheOperandAndTheOptions() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("decode", "--help");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .startsWith("usage: roofline decode [model|config.json] [options]\n")
                .contains("--weights F[,F...]")
                .contains("--batch B[,B...]")
                .contains("--context T[,T...]")
                .contains("--kv P");
    }

    @Test
    void anUnknownModelIsNamed() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("decode", "no-such-model");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("roofline decode: ")
                .contains("no-such-model")
                .hasLineCount(1);
    }

    @Test
    void aMixtureOfExpertsIsRefusedByName() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("decode", "mixtral-8x7b");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).contains("dense models").hasLineCount(1);
    }

    @Test
    void anFp8KvCacheIsAUsageError() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("decode", "--kv", "fp8_e4m3");
        assertThat(r.status()).isNotZero();
        assertThat(r.err()).contains("--kv").contains("FP16 only");
    }

    @Test
    void withoutAGpuItPrintsThePredictionPerOperatorAndSaysNothingWasMeasured() {
        assumeFalse(Cuda.isAvailable(), "a GPU is present: the command would measure");
        MeasureCommandTest.Run r =
                MeasureCommandTest.run("decode", "--weights", "FP16", "--format", "csv", "--hw", "h200");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).endsWith(" - nothing measured\n").hasLineCount(1);
        // Llama-3-8B, batch 1, context 1024, FP16 on the H200 datasheet (4.8 TB/s): lm_head reads 128256 x 4096 x 2 B
        // = 1,050,673,152 B of weights, 8 KiB of input and 256,512 B of logits: 1,050,937,856 B / 4.8e12 B/s = 218.946
        // us
        assertThat(r.out()).contains(",lm_head,1,218.945,,,");
        // 32 layers: 2 x 32 + 1 norms, 2 x 32 attention launches, 9 operators' worth of 32 + lm_head = 322 launches
        assertThat(r.out()).contains(",step,322,");
    }
}
