package dev.roofline.core.model;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.roofline.Attention;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.OperatorTime;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The presets against Hugging Face transformers, an independent implementation of each architecture: the parameter
 * totals and one decoder layer's matrix FLOPs in a 512-token prefill that roofline-core/src/bench/python/
 * preset_parameters.py measured with transformers 5.17 (totals on the meta device, FLOPs with FlopCounterMode on an
 * H100) and recorded under docs/measurements. Both must agree exactly: FlopCounterMode counts the projections and the
 * attention's two S × S products, which roofline counts the same way, and not the softmax, which roofline adds (5 FLOPs
 * a score) and this test takes back out.
 */
class TransformersPresetsTest {
    private static final Path RECORD = Path.of("..", "docs", "measurements", "2026-11-25-issue16-transformers-presets");

    private static Map<String, Long> read(String file) throws IOException {
        Map<String, Long> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(RECORD.resolve(file))) {
            if (line.startsWith("preset,")) {
                continue;
            }
            String[] cells = line.split(",");
            rows.put(cells[0], Long.parseLong(cells[1]));
        }
        return rows;
    }

    @Test
    void everyPresetsTotalIsTransformersTotal() throws IOException {
        Map<String, Long> transformers = read("preset-parameters.csv");
        // every preset of the families issue 16 added: Llama 3.1/3.2, Mistral Small, Phi-4, Gemma 3, Qwen3 (dense and
        // mixture), gpt-oss, the R1 distills on Qwen2.5
        assertThat(transformers).hasSize(21);
        transformers.forEach((name, total) ->
                assertThat(Models.byName(name).parameterCount()).as(name).isEqualTo(total));
    }

    @Test
    void everyDenseLayersMatrixFlopsAreTransformers() throws IOException {
        Map<String, Long> transformers = read("preset-layer-flops.csv");
        assertThat(transformers).hasSize(17);
        transformers.forEach((name, flops) -> {
            Model m = Models.byName(name);
            ModelPrediction p = Transformer.of(m, Hardware.H100_SXM).predict(Workload.prefill(1, 512));
            // the layers' matrix products (projections and attention; a windowed layer's attention is whole at 512
            // tokens, within every window) per layer; lm_head is outside the layers
            long layers = 0;
            for (OperatorTime o : p.operators()) {
                if (o.step().matmul() && !o.step().name().equals("lm_head")) {
                    layers += o.flops();
                    if (o.step().operator() instanceof Attention a) {
                        layers -= a.softmaxFlops() * o.step().count();
                    }
                }
            }
            assertThat(layers % m.layers()).as(name).isZero();
            assertThat(layers / m.layers()).as(name).isEqualTo(flops);
        });
    }
}
