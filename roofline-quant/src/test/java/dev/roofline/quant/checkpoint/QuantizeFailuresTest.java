package dev.roofline.quant.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.roofline.quant.safetensors.Dtype;
import dev.roofline.quant.safetensors.ShardedCheckpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad data names the tensor or path; a weight NVFP4 cannot hold is kept and excluded instead of failing the model. */
class QuantizeFailuresTest {
    @TempDir
    Path dir;

    @Test
    void aNaNWeightIsADataErrorNamingTheTensorAndElement() throws IOException {
        float[] down = SmallModel.ramp(64);
        down[64 + 3] = Float.NaN; // row 1, column 3
        Path model = SmallModel.write(dir.resolve("m"), 64, down);
        assertThatThrownBy(() -> CheckpointQuantizer.newBuilder(QuantTarget.FP8_PER_CHANNEL)
                        .build()
                        .quantize(model, dir.resolve("out")))
                .isInstanceOf(UnquantizableWeightException.class)
                .hasMessageContaining("tensor '" + SmallModel.DOWN + "' [64, 64]")
                .hasMessageContaining("values[67] is NaN")
                .hasMessageContaining("model.safetensors")
                .satisfies(e ->
                        assertThat(((UnquantizableWeightException) e).tensor()).isEqualTo(SmallModel.DOWN));
        assertThat(names(dir)).containsExactly("m");
    }

    @Test
    void anInfiniteWeightIsADataErrorInEveryLayout() throws IOException {
        float[] down = SmallModel.ramp(64);
        down[5] = Float.NEGATIVE_INFINITY;
        Path model = SmallModel.write(dir.resolve("m"), 64, down);
        for (QuantTarget target : QuantTarget.values()) {
            assertThatThrownBy(
                            () -> CheckpointQuantizer.newBuilder(target).build().quantize(model, dir.resolve("out")))
                    .as(target.toString())
                    .isInstanceOf(UnquantizableWeightException.class)
                    .hasMessageContaining(SmallModel.DOWN)
                    .hasMessageContaining("-Infinity");
        }
        assertThat(names(dir)).containsExactly("m");
    }

    @Test
    void nvfp4KeepsAWeightWhoseKIsNotAMultipleOf16AndExcludesIt() throws IOException {
        float[] down = SmallModel.ramp(40);
        Path model = SmallModel.write(dir.resolve("m"), 40, down);
        Path out = dir.resolve("out");
        List<String> warnings = new ArrayList<>();
        CheckpointResult r = CheckpointQuantizer.newBuilder(QuantTarget.NVFP4_MODELOPT)
                .warnings(warnings::add)
                .build()
                .quantize(model, out);
        String module = "model.layers.0.mlp.down_proj";
        assertThat(r.quantized()).isEqualTo(1); // q_proj
        assertThat(r.skipped()).containsExactly(module);
        assertThat(warnings)
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains(SmallModel.DOWN)
                .contains("[64, 40]")
                .contains("multiple of 16")
                .contains("exclude_modules");
        try (ShardedCheckpoint q = ShardedCheckpoint.open(out)) {
            assertThat(q.tensor(SmallModel.DOWN).dtype()).isEqualTo(Dtype.F32);
            assertThat(q.fileOf(SmallModel.DOWN).floats(SmallModel.DOWN)).isEqualTo(down);
            assertThat(q.contains(module + ".weight_scale")).isFalse();
            assertThat(q.tensor(SmallModel.Q).dtype()).isEqualTo(Dtype.U8);
        }
        ObjectMapper json = new ObjectMapper();
        JsonNode hf = json.readTree(out.resolve("hf_quant_config.json").toFile());
        assertThat(strings(hf.at("/quantization/exclude_modules"))).contains(module);
        JsonNode config = json.readTree(out.resolve("config.json").toFile());
        assertThat(strings(config.at("/quantization_config/exclude_modules"))).contains(module);
    }

    @Test
    void compressedTensorsListsTheKeptWeightUnderIgnore() throws IOException {
        Path model = SmallModel.write(dir.resolve("m"), 24, SmallModel.ramp(24));
        Path out = dir.resolve("out");
        CheckpointResult r = CheckpointQuantizer.newBuilder(QuantTarget.NVFP4_COMPRESSED_TENSORS)
                .build()
                .quantize(model, out);
        assertThat(r.skipped()).containsExactly("model.layers.0.mlp.down_proj");
        JsonNode config = new ObjectMapper().readTree(out.resolve("config.json").toFile());
        assertThat(strings(config.at("/quantization_config/ignore"))).contains("model.layers.0.mlp.down_proj");
    }

    @Test
    void fp8QuantizesAnyK() throws IOException {
        Path model = SmallModel.write(dir.resolve("m"), 40, SmallModel.ramp(40));
        CheckpointResult r = CheckpointQuantizer.newBuilder(QuantTarget.FP8_PER_TENSOR)
                .build()
                .quantize(model, dir.resolve("out"));
        assertThat(r.quantized()).isEqualTo(2);
        assertThat(r.skipped()).isEmpty();
    }

    @Test
    void anExistingOutputIsRefusedNamingIt() throws IOException {
        Path model = SmallModel.write(dir.resolve("m"), 64, SmallModel.ramp(64));
        Path out = Files.createDirectory(dir.resolve("out"));
        assertThatThrownBy(() -> CheckpointQuantizer.newBuilder(QuantTarget.FP8_PER_TENSOR)
                        .build()
                        .quantize(model, out))
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining(out.toString())
                .hasMessageContaining("already exists");
    }

    @Test
    void aMissingParentFolderIsRefusedNotCreated() throws IOException {
        Path model = SmallModel.write(dir.resolve("m"), 64, SmallModel.ramp(64));
        Path out = dir.resolve("no").resolve("such").resolve("out");
        assertThatThrownBy(() -> CheckpointQuantizer.newBuilder(QuantTarget.FP8_PER_TENSOR)
                        .build()
                        .quantize(model, out))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining(dir.resolve("no").resolve("such").toString())
                .hasMessageContaining("does not exist");
        assertThat(dir.resolve("no")).doesNotExist();
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    static List<String> names(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
