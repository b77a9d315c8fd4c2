package dev.roofline.quant.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.roofline.core.precision.Precision;
import dev.roofline.quant.block.Fp8Tensor;
import dev.roofline.quant.block.Nvfp4Quantizer;
import dev.roofline.quant.block.Nvfp4Tensor;
import dev.roofline.quant.safetensors.Dtype;
import dev.roofline.quant.safetensors.SafetensorsFile;
import dev.roofline.quant.safetensors.ShardedCheckpoint;
import dev.roofline.quant.safetensors.TensorInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CheckpointQuantizerTest {
    static final int HIDDEN = TinyLlama.HIDDEN, FFN = TinyLlama.FFN, LAYERS = TinyLlama.LAYERS;
    static final String CONFIG = TinyLlama.CONFIG;

    @TempDir
    Path dir;

    static Map<String, float[]> writeModel(Path model) throws IOException {
        return TinyLlama.write(model);
    }

    @Test
    void nvfp4CheckpointMatchesModelOptLayoutByteForByte() throws IOException {
        Path model = dir.resolve("tiny-llama");
        Map<String, float[]> original = writeModel(model);
        List<String> lines = new ArrayList<>();
        Path out = dir.resolve("tiny-llama-nvfp4");
        CheckpointResult result = CheckpointQuantizer.newBuilder(QuantTarget.NVFP4_MODELOPT)
                .progress(lines::add)
                .build()
                .quantize(model, out);

        assertThat(result.quantized()).isEqualTo(LAYERS * 7);
        assertThat(result.copied()).isEqualTo(2 + LAYERS * 2 + 1); // embeddings, lm_head, norms
        assertThat(lines).hasSize(LAYERS * 7 + 1);
        assertThat(lines.getFirst())
                .startsWith("[1/14] model.layers.0.self_attn.q_proj.weight [64, 64] BF16 -> NVFP4_MODELOPT, SQNR");
        try (ShardedCheckpoint q = ShardedCheckpoint.open(out)) {
            String down = "model.layers.1.mlp.down_proj";
            TensorInfo packed = q.tensor(down + ".weight");
            assertThat(packed.dtype()).isEqualTo(Dtype.U8);
            assertThat(packed.shape()).containsExactly((long) HIDDEN, (long) FFN / 2);
            assertThat(q.tensor(down + ".weight_scale").dtype()).isEqualTo(Dtype.F8_E4M3);
            assertThat(q.tensor(down + ".weight_scale").shape()).containsExactly((long) HIDDEN, (long) FFN / 16);
            assertThat(q.tensor(down + ".weight_scale_2").shape()).isEmpty();
            // byte for byte what the quantizer gives for the same weights
            Nvfp4Tensor expected = Nvfp4Quantizer.modelOpt().quantize(original.get(down + ".weight"), HIDDEN, FFN);
            assertThat(bytes(q, down + ".weight")).isEqualTo(expected.packed());
            assertThat(bytes(q, down + ".weight_scale")).isEqualTo(expected.blockScales());
            assertThat(bytes(q, down + ".weight_scale_2")).isEqualTo(le(expected.globalScale()));
            // norms, embeddings and lm_head untouched
            assertThat(q.fileOf("model.norm.weight").floats("model.norm.weight"))
                    .isEqualTo(original.get("model.norm.weight"));
            assertThat(q.fileOf("lm_head.weight").floats("lm_head.weight")).isEqualTo(original.get("lm_head.weight"));
            assertThat(q.tensor("lm_head.weight").dtype()).isEqualTo(Dtype.BF16);
        }
        ObjectMapper json = new ObjectMapper();
        JsonNode hf = json.readTree(out.resolve("hf_quant_config.json").toFile());
        assertThat(hf.at("/quantization/quant_algo").asText()).isEqualTo("NVFP4");
        assertThat(hf.at("/quantization/group_size").asInt()).isEqualTo(16);
        assertThat(hf.at("/quantization/exclude_modules").toString())
                .contains("lm_head")
                .contains("model.embed_tokens");
        JsonNode config = json.readTree(out.resolve("config.json").toFile());
        assertThat(config.at("/quantization_config/quant_method").asText()).isEqualTo("modelopt");
        assertThat(config.at("/hidden_size").asInt()).isEqualTo(HIDDEN);
        assertThat(out.resolve("tokenizer.json")).exists();
        assertThat(result.worstSqnrDb()).isGreaterThan(10).isLessThan(40);
    }

    @Test
    void compressedTensorsVariantStoresTheReciprocalGlobalScale() throws IOException {
        Path model = dir.resolve("m");
        Map<String, float[]> original = writeModel(model);
        Path out = dir.resolve("m-ct");
        CheckpointQuantizer.newBuilder(QuantTarget.NVFP4_COMPRESSED_TENSORS)
                .build()
                .quantize(model, out);
        try (ShardedCheckpoint q = ShardedCheckpoint.open(out)) {
            String o = "model.layers.0.self_attn.o_proj";
            Nvfp4Tensor expected = Nvfp4Quantizer.modelOpt().quantize(original.get(o + ".weight"), HIDDEN, HIDDEN);
            assertThat(bytes(q, o + ".weight_packed")).isEqualTo(expected.packed());
            assertThat(bytes(q, o + ".weight_global_scale")).isEqualTo(le(1f / expected.globalScale()));
            assertThat(q.contains(o + ".weight")).isFalse();
        }
        JsonNode config = new ObjectMapper().readTree(out.resolve("config.json").toFile());
        assertThat(config.at("/quantization_config/format").asText()).isEqualTo("nvfp4-pack-quantized");
        assertThat(out.resolve("hf_quant_config.json")).doesNotExist();
    }

    @Test
    void fp8PerChannelScalesAreOnePerRow() throws IOException {
        Path model = dir.resolve("m8");
        Map<String, float[]> original = writeModel(model);
        Path out = dir.resolve("m8-fp8");
        CheckpointQuantizer.newBuilder(QuantTarget.FP8_PER_CHANNEL).build().quantize(model, out);
        try (ShardedCheckpoint q = ShardedCheckpoint.open(out)) {
            String up = "model.layers.0.mlp.up_proj";
            Fp8Tensor expected =
                    Fp8Tensor.quantize(Precision.FP8_E4M3, original.get(up + ".weight"), FFN, HIDDEN, true);
            assertThat(q.tensor(up + ".weight").dtype()).isEqualTo(Dtype.F8_E4M3);
            assertThat(bytes(q, up + ".weight")).isEqualTo(expected.codes());
            assertThat(q.tensor(up + ".weight_scale").shape()).containsExactly((long) FFN, 1L);
            assertThat(q.fileOf(up + ".weight_scale").floats(up + ".weight_scale"))
                    .isEqualTo(expected.scales());
        }
    }

    @Test
    void aFailureLeavesNoOutputBehind() throws IOException {
        Path model = dir.resolve("mf");
        writeModel(model);
        Path out = dir.resolve("mf-out");
        CheckpointQuantizer failing = CheckpointQuantizer.newBuilder(QuantTarget.NVFP4_MODELOPT)
                .progress(line -> {
                    if (line.startsWith("[5/")) {
                        throw new IllegalStateException("disk full (simulated)");
                    }
                })
                .build();
        assertThatThrownBy(() -> failing.quantize(model, out)).hasMessageContaining("disk full (simulated)");
        assertThat(out).doesNotExist();
        try (var left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("mf");
        }
    }

    @Test
    void badInputIsRefusedClearly() throws IOException {
        Path model = dir.resolve("mb");
        writeModel(model);
        Path existing = Files.createDirectories(dir.resolve("exists"));
        assertThatThrownBy(() -> CheckpointQuantizer.newBuilder(QuantTarget.FP8_PER_TENSOR)
                        .build()
                        .quantize(model, existing))
                .hasMessageContaining("outputDir already exists");
        Files.writeString(model.resolve("config.json"), CONFIG.replace("\"llama\"", "\"gpt2\""));
        assertThatThrownBy(() -> CheckpointQuantizer.newBuilder(QuantTarget.FP8_PER_TENSOR)
                        .build()
                        .quantize(model, dir.resolve("x")))
                .hasMessageContaining("model_type \"gpt2\" is not supported")
                .hasMessageContaining("deepseek_v3");
        assertThatThrownBy(() -> CheckpointQuantizer.newBuilder(QuantTarget.FP8_PER_TENSOR)
                        .fourOverSix(true))
                .hasMessageContaining("fourOverSix applies to NVFP4");
        assertThatThrownBy(() -> CheckpointQuantizer.newBuilder(null)).hasMessageContaining("target must not be null");
    }

    @Test
    void exclusionsAreConfigurable() throws IOException {
        Path model = dir.resolve("me");
        writeModel(model);
        Path out = dir.resolve("me-out");
        CheckpointResult r = CheckpointQuantizer.newBuilder(QuantTarget.FP8_PER_TENSOR)
                .exclude("down_proj")
                .build()
                .quantize(model, out);
        assertThat(r.quantized()).isEqualTo(LAYERS * 6);
        try (ShardedCheckpoint q = ShardedCheckpoint.open(out)) {
            assertThat(q.tensor("model.layers.0.mlp.down_proj.weight").dtype()).isEqualTo(Dtype.BF16);
            assertThat(q.tensor("model.layers.0.mlp.up_proj.weight_scale").shape())
                    .isEmpty();
        }
    }

    private static byte[] bytes(ShardedCheckpoint q, String name) throws IOException {
        SafetensorsFile f = q.fileOf(name);
        return f.segment(name).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    private static byte[] le(float f) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(f).array();
    }
}
