package dev.roofline.quant.cli;

import dev.roofline.core.precision.Precision;
import dev.roofline.quant.checkpoint.TinyLlama;
import dev.roofline.quant.recommend.LayerChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.roofline.quant.cli.QuantCommandsTest.run;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code roofline advise}: recommends only what {@code quantize} writes, and prints the command that writes it. */
class AdviseCommandTest {

    @Test
    void printsTheQuantizeCommandThatAppliesTheAdvice(@TempDir Path dir) throws Exception {
        Path model = dir.resolve("tiny");
        TinyLlama.write(model);
        QuantCommandsTest.Run r = run("advise", model.toString(), "--min-sqnr", "0", "--compare", "nf4,int4");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("| model.layers.0.mlp.gate_proj.weight | 128 x 64 | NVFP4 |")
                .doesNotContain("| NF4 |")
                .doesNotContain("| INT4 |")
                .contains("apply: roofline quantize " + model + " OUT-DIR --format nvfp4\n");
    }

    @Test
    void anUnreachableBudgetQuantizesNothing(@TempDir Path dir) throws Exception {
        Path model = dir.resolve("tiny");
        TinyLlama.write(model);
        QuantCommandsTest.Run r = run("advise", model.toString(), "--min-sqnr", "300");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("apply: nothing to quantize, every layer stays as it is");
    }

    @Test
    void aFormatQuantizeCannotWriteIsAUsageErrorNamingTheOption() {
        QuantCommandsTest.Run r = run("advise", "x", "--formats", "nvfp4,nf4");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err())
                .startsWith("roofline advise: --formats: candidate NF4 cannot be recommended: quantize does not"
                        + " write it; it writes FP8 E4M3, NVFP4")
                .contains("use --compare nf4");
    }

    @Test
    void layersThatStayFp16AreExcludedByTheirFullTensorName() {
        // quantize --exclude matches name substrings: the full name of layer 1 does not match layer 11
        List<LayerChoice> choices = List.of(
                choice("model.layers.1.mlp.down_proj.weight", Precision.FP16),
                choice("model.layers.11.mlp.down_proj.weight", Precision.FP8_E4M3));
        assertThat(AdviseCommand.applyLine("m", choices))
                .isEqualTo("apply: roofline quantize m OUT-DIR --format fp8-channel"
                        + " --exclude model.layers.1.mlp.down_proj.weight");
    }

    private static LayerChoice choice(String layer, Precision p) {
        return new LayerChoice(layer, 64, 128, p, 30, 1, 2, List.of(), "test");
    }
}
