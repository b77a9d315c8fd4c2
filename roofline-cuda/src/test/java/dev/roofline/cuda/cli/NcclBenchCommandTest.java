package dev.roofline.cuda.cli;

import dev.roofline.core.cli.UsageException;
import dev.roofline.core.parallel.Collective;
import dev.roofline.core.parallel.CollectiveFit;
import dev.roofline.cuda.nccl.Nccl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code roofline nccl-bench}: listed, its help, its usage errors, and one line without NCCL or a GPU. */
class NcclBenchCommandTest {

    @Test
    void helpPrintsTheOptionsAndTheirDefaults() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("nccl-bench", "--help");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .startsWith("usage: roofline nccl-bench [options]\n")
                .contains("--ops OP[,OP...]")
                .contains("all-reduce,all-gather,reduce-scatter")
                .contains("--max-bytes SIZE")
                .contains("--calibration FILE");
        assertThat(MeasureCommandTest.run("--help").out()).containsPattern("(?m)^  nccl-bench +NCCL collectives");
    }

    @Test
    void opsAreReadInTheOrderGiven() {
        assertThat(NcclBenchCommand.ops("reduce-scatter, ALL-REDUCE"))
                .isEqualTo(List.of(Collective.Op.REDUCE_SCATTER, Collective.Op.ALL_REDUCE));
        assertThatThrownBy(() -> NcclBenchCommand.ops("all-reduce,all-to-all"))
                .isInstanceOf(UsageException.class)
                .hasMessage("--ops: 'all-to-all' is not one of all-reduce, all-gather, reduce-scatter");
        assertThatThrownBy(() -> NcclBenchCommand.ops("all-gather,all-gather"))
                .hasMessage("--ops: 'all-gather' is given twice");
    }

    @Test
    void freshFitsReplaceOnlyThoseOfTheirOperationAndGpuCount() {
        CollectiveFit ar2 = new CollectiveFit(Collective.Op.ALL_REDUCE, 2, 7e-6, 2.7e11);
        CollectiveFit ag2 = new CollectiveFit(Collective.Op.ALL_GATHER, 2, 6e-6, 2.2e11);
        CollectiveFit ar4 = new CollectiveFit(Collective.Op.ALL_REDUCE, 4, 9e-6, 2.5e11);
        CollectiveFit ar2New = new CollectiveFit(Collective.Op.ALL_REDUCE, 2, 8e-6, 2.8e11);
        assertThat(NcclBenchCommand.merged(List.of(ar2, ag2), List.of(ar2New, ar4)))
                .containsExactly(ag2, ar2New, ar4);
        assertThat(NcclBenchCommand.merged(List.of(ar2, ag2), List.of())).containsExactly(ar2, ag2);
    }

    @Test
    void sizesOutOfOrderAreAUsageError() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("nccl-bench", "--min-bytes", "1M", "--max-bytes", "64K");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline nccl-bench: --max-bytes 65536 is below --min-bytes 1048576\n");
    }

    @Test
    void aSizeWithoutAUnitWeKnowNamesTheOption() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("nccl-bench", "--max-bytes", "1T");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("--max-bytes must be a positive size in bytes such as 8, 64K, 1M or 1G, got '1T'");
    }

    @Test
    void anUnknownLinkIsAUsageError() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("nccl-bench", "--link", "nvlink9");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline nccl-bench: --link: unknown interconnect 'nvlink9'; known: nvlink4");
    }

    @Test
    void aMissingCalibrationFileIsAUsageErrorBeforeAnythingRuns(@TempDir Path dir) {
        Path missing = dir.resolve("h100.json");
        MeasureCommandTest.Run r = MeasureCommandTest.run("nccl-bench", "--calibration", missing.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err())
                .startsWith("roofline nccl-bench: --calibration " + missing + ": no such file; write one with roofline"
                        + " decode --calibrate FILE first\n");
    }

    @Test
    void withoutNcclItFailsOnOneLine() {
        assumeFalse(Nccl.isAvailable(), "NCCL and a GPU are present: the command would measure");
        MeasureCommandTest.Run r = MeasureCommandTest.run("nccl-bench");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).endsWith(" - nothing measured\n").hasLineCount(1);
    }
}
