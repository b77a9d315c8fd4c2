package dev.roofline.quant.cli;

import dev.roofline.quant.checkpoint.SmallModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.roofline.quant.cli.QuantCommandsTest.run;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code roofline quantize}: data errors are exit status 1 on one line naming the tensor or path, not usage errors. */
class QuantizeCommandTest {
    @TempDir
    Path dir;

    @Test
    void aNaNWeightNamesTheTensor() throws IOException {
        float[] down = SmallModel.ramp(64);
        down[100] = Float.NaN;
        Path model = SmallModel.write(dir.resolve("m"), 64, down);
        QuantCommandsTest.Run r =
                run("quantize", model.toString(), dir.resolve("out").toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("roofline quantize: ")
                .contains("tensor '" + SmallModel.DOWN + "'")
                .contains("NaN")
                .doesNotContain("usage:")
                .hasLineCount(1);
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void anExistingOutputIsADataError() throws IOException {
        Path model = SmallModel.write(dir.resolve("m"), 64, SmallModel.ramp(64));
        Path out = Files.createDirectory(dir.resolve("out"));
        QuantCommandsTest.Run r = run("quantize", model.toString(), out.toString(), "--format", "fp8");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).contains(out.toString()).contains("already exists").hasLineCount(1);
    }

    @Test
    void aMissingParentIsRefusedOnOneLine() throws IOException {
        Path model = SmallModel.write(dir.resolve("m"), 64, SmallModel.ramp(64));
        QuantCommandsTest.Run r =
                run("quantize", model.toString(), dir.resolve("a/b/out").toString(), "--format", "fp8");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("roofline quantize: no such file or directory: " + dir.resolve("a/b"))
                .hasLineCount(1);
        assertThat(dir.resolve("a")).doesNotExist();
    }

    @Test
    void aWeightNvfp4CannotHoldIsKeptWithAWarning() throws IOException {
        Path model = SmallModel.write(dir.resolve("m"), 40, SmallModel.ramp(40));
        QuantCommandsTest.Run r =
                run("quantize", model.toString(), dir.resolve("out").toString());
        assertThat(r.status()).isZero();
        assertThat(r.err())
                .isEqualTo("warning: " + SmallModel.DOWN + " [64, 40] stays F32: NVFP4_MODELOPT needs K (the last"
                        + " dimension) to be a multiple of 16; listed in exclude_modules\n");
        assertThat(r.out()).contains("1 weights quantized to NVFP4_MODELOPT, 1 tensors copied");
    }
}
