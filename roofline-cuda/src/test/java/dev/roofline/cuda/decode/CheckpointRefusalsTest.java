package dev.roofline.cuda.decode;

import dev.roofline.quant.safetensors.Dtype;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every checkpoint {@link CheckpointWeights} refuses, named by tensor: nothing is loaded half or guessed. */
class CheckpointRefusalsTest {
    private static final DecoderShape SHAPE = CheckpointWeightsTest.SHAPE;
    private static final String Q = "model.layers.0.self_attn.q_proj";
    private static final String K = "model.layers.0.self_attn.k_proj";
    private static final String DOWN = "model.layers.0.mlp.down_proj";

    @TempDir
    Path dir;

    private static LlamaCheckpoint bf16() {
        return LlamaCheckpoint.random(SHAPE, Dtype.BF16, 11);
    }

    private static byte[] randomBytes(long n) {
        byte[] b = new byte[Math.toIntExact(n)];
        new Random(n).nextBytes(b);
        return b;
    }

    /** Module {@code m} as FP8 E4M3 of {@code rows × cols} with {@code scales} of {@code shape}. */
    private static LlamaCheckpoint fp8(
            LlamaCheckpoint c, String m, long rows, long cols, double[] scales, long... shape) {
        return c.put(m + ".weight", Dtype.F8_E4M3, List.of(rows, cols), randomBytes(rows * cols))
                .put(m + ".weight_scale", Dtype.F32, scales, shape);
    }

    private UnloadableTensorException refusal(LlamaCheckpoint c, DecoderShape shape) throws IOException {
        Path p = c.write(dir.resolve("checkpoint"));
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> CheckpointWeights.open(p, shape));
        assertThat(t).isInstanceOf(UnloadableTensorException.class).hasMessageStartingWith(p + ": ");
        return (UnloadableTensorException) t;
    }

    private UnloadableTensorException refusal(LlamaCheckpoint c) throws IOException {
        return refusal(c, SHAPE);
    }

    @Test
    void aMissingProjectionIsNamedWithItsShape() throws IOException {
        UnloadableTensorException e = refusal(bf16().remove("model.layers.1.mlp.up_proj.weight"));
        assertThat(e.tensor()).isEqualTo("model.layers.1.mlp.up_proj.weight");
        assertThat(e)
                .hasMessageContaining("no tensor 'model.layers.1.mlp.up_proj.weight'"
                        + " (model.layers.1.mlp.up_proj as the decoder shape's 128 x 64 matrix)");
    }

    @Test
    void aProjectionOfTheWrongShapeIsNamed() throws IOException {
        LlamaCheckpoint c = bf16().put(K + ".weight", Dtype.BF16, new double[64 * 64], 64, 64);
        assertThat(refusal(c))
                .hasMessageContaining("tensor '" + K + ".weight' is BF16 [64, 64]; " + K
                        + " as the decoder shape's 32 x 64 matrix must be BF16 [32, 64]");
    }

    @Test
    void aShapeOtherThanTheCheckpointsIsRefused() throws IOException {
        DecoderShape wider = new DecoderShape(2, 64, 2, 1, 32, 256, 16);
        assertThat(refusal(bf16(), wider))
                .hasMessageContaining("'model.layers.0.mlp.gate_proj.weight' is BF16 [128, 64]")
                .hasMessageContaining("must be BF16 [256, 64]");
    }

    @Test
    void anotherVocabularyIsRefusedAtTheEmbeddings() throws IOException {
        DecoderShape larger = new DecoderShape(2, 64, 2, 1, 32, 128, 32);
        assertThat(refusal(bf16(), larger).tensor()).isEqualTo("model.embed_tokens.weight");
    }

    @Test
    void missingEmbeddingsAreNamed() throws IOException {
        assertThat(refusal(bf16().remove("model.embed_tokens.weight")))
                .hasMessageContaining("no tensor 'model.embed_tokens.weight' (the token embeddings, vocab x hidden)");
    }

    @Test
    void f32WeightsAreRefusedWithTheFix() throws IOException {
        LlamaCheckpoint c = bf16().put(Q + ".weight", Dtype.F32, new double[64 * 64], 64, 64);
        assertThat(refusal(c))
                .hasMessageContaining("is F32;")
                .hasMessageContaining("convert an F32 checkpoint to BF16");
    }

    @Test
    void anUnknownDtypeIsRefused() throws IOException {
        LlamaCheckpoint c = bf16().put(Q + ".weight", Dtype.I32, List.of(64L, 64L), new byte[4 * 64 * 64]);
        assertThat(refusal(c)).hasMessageContaining("'" + Q + ".weight' is I32; the decoder takes linear weights");
    }

    @Test
    void blockWiseFp8ScalesAreRefused() throws IOException {
        LlamaCheckpoint c = fp8(bf16(), DOWN, 64, 128, new double[] {1, 1}, 1, 2);
        assertThat(refusal(c))
                .hasMessageContaining("'" + DOWN + ".weight_scale' is [1, 2]: block-wise FP8 scales, but the FP8 GEMV"
                        + " takes one scale per tensor ([] or [1]) or per output channel ([64] or [64, 1])");
    }

    @Test
    void inverseBlockScalesAreRefused() throws IOException {
        LlamaCheckpoint c = bf16().put(DOWN + ".weight", Dtype.F8_E4M3, List.of(64L, 128L), randomBytes(64 * 128))
                .put(DOWN + ".weight_scale_inv", Dtype.F32, new double[] {1}, 1, 1);
        assertThat(refusal(c)).hasMessageContaining("'" + DOWN + ".weight_scale_inv' holds block-wise FP8 scales");
    }

    @Test
    void anFp8WeightWithoutScalesIsRefused() throws IOException {
        LlamaCheckpoint c = bf16().put(DOWN + ".weight", Dtype.F8_E4M3, List.of(64L, 128L), randomBytes(64 * 128));
        assertThat(refusal(c)).hasMessageContaining("no tensor '" + DOWN + ".weight_scale'");
    }

    @Test
    void aNonFiniteFp8ScaleIsRefused() throws IOException {
        double[] scales = new double[64];
        scales[5] = Double.POSITIVE_INFINITY;
        assertThat(refusal(fp8(bf16(), DOWN, 64, 128, scales, 64, 1)))
                .hasMessageContaining("holds Infinity: FP8 scales must be finite");
    }

    @Test
    void bitsandbytesFourBitWeightsAreRefused() throws IOException {
        LlamaCheckpoint c = bf16().put(Q + ".weight", Dtype.U8, List.of(2048L, 1L), new byte[2048])
                .put(Q + ".weight.absmax", Dtype.F32, new double[64], 64)
                .put(Q + ".weight.quant_state.bitsandbytes__nf4", Dtype.U8, List.of(4L), new byte[4]);
        assertThat(refusal(c)).hasMessageContaining("comes with bitsandbytes quantization state");
    }

    @Test
    void gptqPackingIsRefused() throws IOException {
        LlamaCheckpoint c = bf16().remove(Q + ".weight")
                .put(Q + ".qweight", Dtype.I32, List.of(8L, 64L), new byte[4 * 8 * 64])
                .put(Q + ".scales", Dtype.F16, new double[64], 1, 64);
        assertThat(refusal(c)).hasMessageContaining("GPTQ/AWQ").hasMessageContaining(Q + ".qweight");
    }

    @Test
    void u8WithoutNvfp4ScalesIsRefused() throws IOException {
        LlamaCheckpoint c = bf16().put(Q + ".weight", Dtype.U8, List.of(64L, 32L), new byte[64 * 32]);
        assertThat(refusal(c)).hasMessageContaining("is U8 without NVFP4's weight_scale and weight_scale_2");
    }

    @Test
    void nvfp4NeedsKAMultipleOf32() throws IOException {
        DecoderShape narrow = new DecoderShape(2, 64, 2, 1, 32, 48, 16);
        LlamaCheckpoint c = LlamaCheckpoint.random(narrow, Dtype.BF16, 12).nvfp4(DOWN, 64, 48, 0.01);
        assertThat(refusal(c, narrow))
                .hasMessageContaining("'" + DOWN + ".weight' is NVFP4, whose GEMV needs K (columns) a multiple of 32;"
                        + " the decoder shape gives " + DOWN + " 48 columns");
    }

    @Test
    void aZeroNvfp4GlobalScaleIsRefused() throws IOException {
        assertThat(refusal(bf16().nvfp4(DOWN, 64, 128, 0)))
                .hasMessageContaining("'" + DOWN + ".weight_scale_2' is 0.0: NVFP4's per-tensor scale must give a"
                        + " finite, nonzero multiplier");
    }

    @Test
    void anNvfp4GlobalScaleThatIsNoScalarIsRefused() throws IOException {
        LlamaCheckpoint c = bf16().nvfp4(DOWN, 64, 128, 1).put(DOWN + ".weight_scale_2", Dtype.F32, new double[2], 2);
        assertThat(refusal(c)).hasMessageContaining("is F32 [2]; NVFP4's per-tensor scale must be F32 [] or [1]");
    }

    @Test
    void nvfp4BlockScalesOfTheWrongShapeAreRefused() throws IOException {
        LlamaCheckpoint c = bf16().nvfp4(DOWN, 64, 128, 1)
                .put(DOWN + ".weight_scale", Dtype.F8_E4M3, List.of(64L, 4L), new byte[256]);
        assertThat(refusal(c))
                .hasMessageContaining("is F8_E4M3 [64, 4]; NVFP4 block scales")
                .hasMessageContaining("must be F8_E4M3 [64, 8]");
    }

    @Test
    void aBiasIsRefusedRatherThanLeftOut() throws IOException {
        LlamaCheckpoint c = bf16().put(Q + ".bias", Dtype.BF16, new double[64], 64);
        assertThat(refusal(c))
                .hasMessageContaining("'" + Q + ".bias' is not part of a dense Llama layer as the decoder runs it");
    }

    @Test
    void aLayerBeyondTheShapeIsRefused() throws IOException {
        LlamaCheckpoint c = bf16().put("model.layers.2.input_layernorm.weight", Dtype.BF16, new double[64], 64);
        assertThat(refusal(c)).hasMessageContaining("belongs to layer 2, but the decoder shape has 2 layers");
    }

    @Test
    void aNormBeyondFp16IsRefused() throws IOException {
        double[] norm = new double[64];
        norm[7] = 1e6;
        LlamaCheckpoint c = bf16().put("model.norm.weight", Dtype.BF16, norm, 64);
        assertThat(refusal(c)).hasMessageContaining("'model.norm.weight' holds 999424.0 at 7, which is no finite FP16");
    }

    @Test
    void aFolderWithoutACheckpointIsAnIoError() {
        assertThatThrownBy(() -> CheckpointWeights.open(dir, SHAPE))
                .isInstanceOf(java.nio.file.NoSuchFileException.class)
                .hasMessageContaining("model.safetensors");
    }

    @Test
    void aClosedCheckpointCannotBeUsed() throws IOException {
        CheckpointWeights w = CheckpointWeights.open(bf16().write(dir.resolve("bf16")), SHAPE);
        w.close();
        w.close();
        assertThatThrownBy(w::upload)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageEndingWith("is already closed");
        assertThatThrownBy(w::embeddings).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aTokenOutsideTheVocabularyIsRefused() throws IOException {
        try (CheckpointWeights w = CheckpointWeights.open(bf16().write(dir.resolve("bf16")), SHAPE)) {
            assertThatThrownBy(() -> w.embeddings().lookup(0, 16))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("tokens[1] must be in [0, 16), got 16");
            assertThatThrownBy(() -> w.embeddings().lookup(-1)).hasMessage("tokens[0] must be in [0, 16), got -1");
        }
    }

    @Test
    void anEmbeddingBeyondFp16IsRefusedAtItsLookup() throws IOException {
        double[] table = new double[16 * 64];
        table[5 * 64 + 3] = -1e6;
        LlamaCheckpoint c = bf16().put("model.embed_tokens.weight", Dtype.BF16, table, 16, 64);
        try (CheckpointWeights w = CheckpointWeights.open(c.write(dir.resolve("big")), SHAPE)) {
            assertThat(w.embeddings().lookup(4)).hasSize(64);
            assertThatThrownBy(() -> w.embeddings().lookup(4, 5))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("model.embed_tokens.weight row 5 holds -999424.0 at column 3, beyond FP16's range (the"
                            + " decoder's residual stream)");
        }
    }

    @Test
    void nullArgumentsAreNamed() throws IOException {
        Path p = bf16().write(dir.resolve("bf16"));
        assertThatThrownBy(() -> CheckpointWeights.open(p, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("shape");
        try (CheckpointWeights w = CheckpointWeights.open(p, SHAPE)) {
            assertThatThrownBy(() -> w.embeddings().lookup((int[]) null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("tokens");
        }
    }
}
