package dev.roofline.cuda.decode;

import dev.roofline.cuda.kernels.WeightFormat;
import dev.roofline.quant.checkpoint.CheckpointQuantizer;
import dev.roofline.quant.checkpoint.QuantTarget;
import dev.roofline.quant.safetensors.Dtype;
import dev.roofline.quant.safetensors.ShardedCheckpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

import static dev.roofline.cuda.decode.HostBytes.concat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@link CheckpointWeights} arranges on the host from checkpoints written here and quantized by roofline-quant's
 * {@link CheckpointQuantizer}: every byte as the checkpoint stores it, stacked where the bytes allow. No GPU needed.
 */
class CheckpointWeightsTest {
    /** 2 layers, hidden 64, 2 query heads on 1 KV head of 32, intermediate 128, vocabulary 16. */
    static final DecoderShape SHAPE = new DecoderShape(2, 64, 2, 1, 32, 128, 16);

    private static final String L1 = "model.layers.1.";
    private static final String Q = L1 + "self_attn.q_proj";
    private static final String K = L1 + "self_attn.k_proj";
    private static final String V = L1 + "self_attn.v_proj";
    private static final String GATE = L1 + "mlp.gate_proj";
    private static final String UP = L1 + "mlp.up_proj";

    @TempDir
    Path dir;

    private Path quantized(QuantTarget target) throws IOException {
        Path bf16 = LlamaCheckpoint.random(SHAPE, Dtype.BF16, 3).write(dir.resolve("bf16"));
        Path out = dir.resolve(target.name());
        CheckpointQuantizer.newBuilder(target).build().quantize(bf16, out);
        return out;
    }

    private static byte[] stored(Path checkpoint, String name) throws IOException {
        try (ShardedCheckpoint c = ShardedCheckpoint.open(checkpoint)) {
            return c.fileOf(name).segment(name).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    private static float[] storedFloats(Path checkpoint, String name) throws IOException {
        try (ShardedCheckpoint c = ShardedCheckpoint.open(checkpoint)) {
            return c.fileOf(name).floats(name);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Dtype.class,
            names = {"F16", "BF16"})
    void sixteenBitProjectionsAreStackedQThenKThenV(Dtype dtype) throws IOException {
        LlamaCheckpoint c = LlamaCheckpoint.random(SHAPE, dtype, 1);
        Path p = c.write(dir.resolve("dense"), 20_000); // sharded
        try (CheckpointWeights w = CheckpointWeights.open(p, SHAPE)) {
            HostDecoderWeights.Layer layer = w.host().layers().get(1);
            WeightFormat f = dtype == Dtype.F16 ? WeightFormat.FP16 : WeightFormat.BF16;
            assertThat(layer.qkv()).hasSize(1);
            HostBytes qkv = HostBytes.of(layer.qkv().getFirst());
            assertThat(qkv.format()).isEqualTo(f);
            assertThat(qkv.rows()).isEqualTo(SHAPE.qkvWidth());
            assertThat(qkv.weights())
                    .isEqualTo(concat(
                            c.get(Q + ".weight").bytes(),
                            c.get(K + ".weight").bytes(),
                            c.get(V + ".weight").bytes()));
            assertThat(layer.gateUp()).hasSize(1);
            assertThat(HostBytes.of(layer.gateUp().getFirst()).weights())
                    .isEqualTo(concat(
                            c.get(GATE + ".weight").bytes(),
                            c.get(UP + ".weight").bytes()));
            assertThat(HostBytes.of(layer.o()).weights())
                    .isEqualTo(c.get(L1 + "self_attn.o_proj.weight").bytes());
            assertThat(HostBytes.of(layer.down()).weights())
                    .isEqualTo(c.get(L1 + "mlp.down_proj.weight").bytes());
            assertThat(HostBytes.of(w.host().lmHead()).weights())
                    .isEqualTo(c.get("lm_head.weight").bytes());
        }
    }

    @Test
    void normsAreRoundedToFp16() throws IOException {
        Path p = LlamaCheckpoint.random(SHAPE, Dtype.BF16, 2).write(dir.resolve("bf16"));
        float[] bf16 = storedFloats(p, L1 + "post_attention_layernorm.weight");
        try (CheckpointWeights w = CheckpointWeights.open(p, SHAPE)) {
            short[] norm = w.host().layers().get(1).postNorm();
            for (int i = 0; i < bf16.length; i++) {
                assertThat(norm[i]).as("element " + i).isEqualTo(Float.floatToFloat16(bf16[i]));
            }
        }
    }

    @Test
    void fp8PerChannelWeightsAndScalesAreStackedAsStored() throws IOException {
        Path p = quantized(QuantTarget.FP8_PER_CHANNEL);
        try (CheckpointWeights w = CheckpointWeights.open(p, SHAPE)) {
            HostDecoderWeights.Layer layer = w.host().layers().get(1);
            assertThat(layer.qkv()).hasSize(1);
            HostBytes qkv = HostBytes.of(layer.qkv().getFirst());
            assertThat(qkv.format()).isEqualTo(WeightFormat.FP8_E4M3);
            assertThat(qkv.weights())
                    .isEqualTo(concat(stored(p, Q + ".weight"), stored(p, K + ".weight"), stored(p, V + ".weight")));
            assertThat(qkv.scales())
                    .isEqualTo(concat(
                            stored(p, Q + ".weight_scale"),
                            stored(p, K + ".weight_scale"),
                            stored(p, V + ".weight_scale")));
            assertThat(HostBytes.of(w.host().lmHead()).format())
                    .as("lm_head stays BF16")
                    .isEqualTo(WeightFormat.BF16);
        }
    }

    @Test
    void anFp8PerTensorScaleIsRepeatedForEveryRow() throws IOException {
        Path p = quantized(QuantTarget.FP8_PER_TENSOR);
        float q = storedFloats(p, Q + ".weight_scale")[0];
        float k = storedFloats(p, K + ".weight_scale")[0];
        float v = storedFloats(p, V + ".weight_scale")[0];
        ByteBuffer expected = ByteBuffer.allocate(4 * SHAPE.qkvWidth()).order(ByteOrder.LITTLE_ENDIAN);
        int kv = SHAPE.kvHeads() * SHAPE.headDim();
        for (int r = 0; r < SHAPE.qkvWidth(); r++) {
            expected.putFloat(r < SHAPE.attentionWidth() ? q : r < SHAPE.attentionWidth() + kv ? k : v);
        }
        try (CheckpointWeights w = CheckpointWeights.open(p, SHAPE)) {
            HostBytes qkv = HostBytes.of(w.host().layers().get(1).qkv().getFirst());
            assertThat(qkv.scales()).isEqualTo(expected.array());
        }
    }

    @Test
    void nvfp4ProjectionsKeepTheirOwnGlobalScalesAsParts() throws IOException {
        Path p = quantized(QuantTarget.NVFP4_MODELOPT);
        List<String> modules = List.of(Q, K, V);
        float[] globals = new float[3];
        for (int i = 0; i < 3; i++) {
            globals[i] = storedFloats(p, modules.get(i) + ".weight_scale_2")[0];
        }
        assertThat(globals).as("random projections have their own amax").doesNotHaveDuplicates();
        try (CheckpointWeights w = CheckpointWeights.open(p, SHAPE)) {
            List<HostWeights> qkv = w.host().layers().get(1).qkv();
            assertThat(qkv).hasSize(3);
            for (int i = 0; i < 3; i++) {
                HostBytes part = HostBytes.of(qkv.get(i));
                String m = modules.get(i);
                assertThat(part.format()).isEqualTo(WeightFormat.NVFP4);
                assertThat(part.weights()).as(m).isEqualTo(stored(p, m + ".weight"));
                assertThat(part.scales()).as(m).isEqualTo(stored(p, m + ".weight_scale"));
                assertThat(Float.floatToRawIntBits(part.globalScale()))
                        .as(m)
                        .isEqualTo(Float.floatToRawIntBits(globals[i]));
            }
            assertThat(w.host().layers().get(1).gateUp()).hasSize(2);
        }
    }

    @Test
    void nvfp4NeighboursWithOneGlobalScaleAreStacked() throws IOException {
        LlamaCheckpoint c = LlamaCheckpoint.random(SHAPE, Dtype.BF16, 8)
                .nvfp4(Q, 64, 64, 0.5)
                .nvfp4(K, 32, 64, 0.5)
                .nvfp4(V, 32, 64, 0.25);
        try (CheckpointWeights w = CheckpointWeights.open(c.write(dir.resolve("nvfp4")), SHAPE)) {
            List<HostWeights> qkv = w.host().layers().get(1).qkv();
            assertThat(qkv).extracting(HostWeights::rows).containsExactly(96, 32);
            HostBytes qk = HostBytes.of(qkv.getFirst());
            assertThat(qk.globalScale()).isEqualTo(0.5f);
            assertThat(qk.weights())
                    .isEqualTo(concat(
                            c.get(Q + ".weight").bytes(), c.get(K + ".weight").bytes()));
            assertThat(qk.scales())
                    .isEqualTo(concat(
                            c.get(Q + ".weight_scale").bytes(),
                            c.get(K + ".weight_scale").bytes()));
        }
    }

    @Test
    void compressedTensorsNvfp4TakesTheReciprocalOfItsGlobalScale() throws IOException {
        Path p = quantized(QuantTarget.NVFP4_COMPRESSED_TENSORS);
        float stored = storedFloats(p, K + ".weight_global_scale")[0];
        try (CheckpointWeights w = CheckpointWeights.open(p, SHAPE)) {
            HostBytes k = HostBytes.of(w.host().layers().get(1).qkv().get(1));
            assertThat(k.globalScale()).isEqualTo(1f / stored);
            assertThat(k.weights()).isEqualTo(stored(p, K + ".weight_packed"));
            assertThat(k.scales()).isEqualTo(stored(p, K + ".weight_scale"));
        }
    }

    @Test
    void tiedEmbeddingsServeAsTheLmHead() throws IOException {
        LlamaCheckpoint c = LlamaCheckpoint.random(SHAPE, Dtype.BF16, 4).remove("lm_head.weight");
        try (CheckpointWeights w = CheckpointWeights.open(c.write(dir.resolve("tied")), SHAPE)) {
            assertThat(HostBytes.of(w.host().lmHead()).weights())
                    .isEqualTo(c.get("model.embed_tokens.weight").bytes());
        }
    }

    @Test
    void bf16EmbeddingsAreLookedUpRoundedToFp16() throws IOException {
        Path p = LlamaCheckpoint.random(SHAPE, Dtype.BF16, 5).write(dir.resolve("bf16"));
        float[] table = storedFloats(p, "model.embed_tokens.weight");
        try (CheckpointWeights w = CheckpointWeights.open(p, SHAPE)) {
            short[] rows = w.embeddings().lookup(3, 0, 3);
            int h = SHAPE.hidden();
            assertThat(rows).hasSize(3 * h);
            for (int e = 0; e < h; e++) {
                assertThat(rows[e]).isEqualTo(Float.floatToFloat16(table[3 * h + e]));
                assertThat(rows[h + e]).isEqualTo(Float.floatToFloat16(table[e]));
                assertThat(rows[2 * h + e]).isEqualTo(rows[e]);
            }
        }
    }

    @Test
    void f16EmbeddingsAreLookedUpAsStored() throws IOException {
        LlamaCheckpoint c = LlamaCheckpoint.random(SHAPE, Dtype.F16, 6);
        try (CheckpointWeights w = CheckpointWeights.open(c.write(dir.resolve("f16")), SHAPE)) {
            short[] row = w.embeddings().lookup(15);
            ByteBuffer table =
                    ByteBuffer.wrap(c.get("model.embed_tokens.weight").bytes()).order(ByteOrder.LITTLE_ENDIAN);
            for (int e = 0; e < SHAPE.hidden(); e++) {
                assertThat(row[e]).isEqualTo(table.getShort(2 * (15 * SHAPE.hidden() + e)));
            }
            assertThat(w.embeddings().vocab()).isEqualTo(16);
            assertThat(w.embeddings().hidden()).isEqualTo(64);
        }
    }

    @Test
    void activationAndKvCacheScalesAreNotRead() throws IOException {
        LlamaCheckpoint c = LlamaCheckpoint.random(SHAPE, Dtype.BF16, 7)
                .put(Q + ".input_scale", Dtype.F32, new double[] {0.5})
                .put(L1 + "self_attn.k_scale", Dtype.F32, new double[] {1});
        try (CheckpointWeights w = CheckpointWeights.open(c.write(dir.resolve("scales")), SHAPE)) {
            assertThat(w.host().layers()).hasSize(2);
        }
    }
}
