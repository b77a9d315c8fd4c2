package dev.roofline.cuda.cli;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.parallel.Collective;
import dev.roofline.core.parallel.CollectiveFit;
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

    @Test
    void anAllReduceFitNotTakenFromAGraphIsWarnedAbout() {
        Calibration base = new Calibration(
                new Calibration.Provenance("NVIDIA H100 80GB HBM3", java.time.LocalDate.of(2026, 11, 25), "test"),
                3e12,
                2e-6,
                0,
                0,
                java.util.Map.of());
        CollectiveFit fit = new CollectiveFit(Collective.Op.ALL_REDUCE, 2, 7.12e-6, 2.734e11);
        assertThat(TpDecodeCommand.eagerFitWarning(
                        base.withCollectives(java.util.List.of(fit.withLaunch(CollectiveFit.Launch.GRAPH))), 2))
                .isEmpty();
        assertThat(TpDecodeCommand.eagerFitWarning(
                        base.withCollectives(java.util.List.of(fit.withLaunch(CollectiveFit.Launch.EAGER))), 2))
                .get()
                .asString()
                .contains("measured with eager launches");
        assertThat(TpDecodeCommand.eagerFitWarning(base.withCollectives(java.util.List.of(fit)), 2))
                .get()
                .asString()
                .contains("without saying how it was launched");
        // no fit for 4 GPUs: nothing to warn about (the datasheet's all-reduce is used)
        assertThat(TpDecodeCommand.eagerFitWarning(
                        base.withCollectives(java.util.List.of(fit.withLaunch(CollectiveFit.Launch.EAGER))), 4))
                .isEmpty();
    }
}
