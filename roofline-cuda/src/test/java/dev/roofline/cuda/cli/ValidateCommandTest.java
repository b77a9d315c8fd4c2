package dev.roofline.cuda.cli;

import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.Cuda;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code roofline validate}: what it measures per GPU family, its refusals, and what it says without a GPU. */
class ValidateCommandTest {

    @Test
    void blackwellAddsTheBlockScaledPeaksAndAdaAddsFp8() {
        assertThat(ValidateCommand.precisions(new ComputeCapability(8, 0)))
                .containsExactly(Precision.FP16, Precision.BF16, Precision.INT8);
        assertThat(ValidateCommand.precisions(new ComputeCapability(9, 0)))
                .containsExactly(Precision.FP16, Precision.BF16, Precision.INT8, Precision.FP8_E4M3);
        assertThat(ValidateCommand.precisions(new ComputeCapability(12, 1)))
                .containsExactly(
                        Precision.FP16,
                        Precision.BF16,
                        Precision.INT8,
                        Precision.FP8_E4M3,
                        Precision.NVFP4,
                        Precision.MXFP8_E4M3);
    }

    @Test
    void aMissingOutputFolderIsAUsageError(@TempDir Path dir) {
        MeasureCommandTest.Run r = MeasureCommandTest.run(
                "validate", "--out", dir.resolve("absent").toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline validate: --out ").contains("no such directory");
    }

    @Test
    void withoutAGpuItNamesTheFiguresAndWritesNothing(@TempDir Path dir) throws IOException {
        assumeFalse(Cuda.isAvailable(), "a GPU is present: the command would measure");
        MeasureCommandTest.Run r = MeasureCommandTest.run("validate", "--out", dir.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).endsWith(" - nothing measured or written\n").hasLineCount(1);
        // GB10: 273 GB/s published; its 1 PFLOP FP4 is the sparse figure, so 500 TFLOPS dense NVFP4
        assertThat(r.out())
                .startsWith("Registry figures validate would check on GB10:\n")
                .contains("DRAM bandwidth 273 GB/s")
                .contains("NVFP4 dense peak 500.0 TFLOPS");
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aModelTheDecoderCannotRunIsAUsageError(@TempDir Path dir) {
        MeasureCommandTest.Run unknown = MeasureCommandTest.run("validate", "--out", dir.toString(), "--model", "nope");
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err()).startsWith("roofline validate: --model nope: ");
        MeasureCommandTest.Run latent =
                MeasureCommandTest.run("validate", "--out", dir.toString(), "--model", "deepseek-v3");
        assertThat(latent.status()).isEqualTo(2);
        assertThat(latent.err()).startsWith("roofline validate: --model deepseek-v3: ");
    }

    @Test
    void theRecordIsWrittenWholeOrNotAtAll(@TempDir Path dir) throws IOException {
        Map<Path, String> files = new LinkedHashMap<>();
        files.put(dir.resolve("validation.md"), "# md\n");
        files.put(dir.resolve("validation.json"), "{}\n");
        MeasureCommand.writeAll(files);
        assertThat(Files.readString(dir.resolve("validation.md"))).isEqualTo("# md\n");
        assertThat(Files.readString(dir.resolve("validation.json"))).isEqualTo("{}\n");
        // a file whose folder is gone fails the set: the other file keeps its old text and no temporary file is left
        Map<Path, String> broken = new LinkedHashMap<>();
        broken.put(dir.resolve("validation.md"), "# new\n");
        broken.put(dir.resolve("gone").resolve("calibration.json"), "{}\n");
        assertThatThrownBy(() -> MeasureCommand.writeAll(broken))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cannot write");
        assertThat(Files.readString(dir.resolve("validation.md"))).isEqualTo("# md\n");
        try (var listing = Files.list(dir)) {
            assertThat(listing.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("validation.md", "validation.json");
        }
    }
}
