package dev.roofline.cuda.cli;

import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.decode.DecoderShape;
import dev.roofline.cuda.decode.LlamaCheckpoint;
import dev.roofline.quant.safetensors.Dtype;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code roofline decode}: its help, inputs it refuses, and the prediction it prints without a GPU. */
class DecodeCommandTest {

    @Test
    void helpNamesTheOperandAndTheOptions() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("decode", "--help");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .startsWith("usage: roofline decode [model|config.json] [options]\n")
                .contains("--weights F[,F...]")
                .contains("--batch B[,B...]")
                .contains("--context T[,T...]")
                .contains("--kv P");
    }

    @Test
    void anUnknownModelIsNamed() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("decode", "no-such-model");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("roofline decode: ")
                .contains("no-such-model")
                .hasLineCount(1);
    }

    @Test
    void latentAttentionIsRefusedByName() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("decode", "deepseek-v3");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).contains("multi-head or grouped-query attention").hasLineCount(1);
    }

    @Test
    void mixtralIsPredictedWithItsExpertsOperatorsWithoutAGpu() {
        assumeFalse(Cuda.isAvailable(), "a GPU is present: the command would measure");
        MeasureCommandTest.Run r =
                MeasureCommandTest.run("decode", "mixtral-8x7b", "--weights", "FP16", "--format", "csv");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).endsWith(" - nothing measured\n");
        // 32 layers x 12 launches (2 norms, qkv with RoPE + append at batch 1, 2 of attention, o, router, top-k,
        // gate/up, silu*up, down, combine) + the final norm + lm_head = 386
        assertThat(r.out())
                .contains("Mixtral-8x7B, FP16 weights, FP16 KV, batch 1, context 1024")
                .contains(",router,32,")
                .contains(",top-k,32,")
                .contains(",experts gate_up,32,")
                .contains(",expert combine,32,")
                .doesNotContain(",gate_up_proj,")
                .contains(",rope + kv append,0,")
                .contains(",step,386,");
    }

    @Test
    void aKvPrecisionTheKernelsDoNotStoreIsAUsageError() {
        MeasureCommandTest.Run r = MeasureCommandTest.run("decode", "--kv", "fp16,nvfp4");
        assertThat(r.status()).isNotZero();
        assertThat(r.err()).contains("--kv must be fp16, bf16 or fp8").contains("NVFP4");
    }

    @Test
    void anFp8KvCacheHalvesTheAttentionsCacheBytesInThePrediction() {
        assumeFalse(Cuda.isAvailable(), "a GPU is present: the command would measure");
        MeasureCommandTest.Run r = MeasureCommandTest.run(
                "decode", "--weights", "FP16", "--kv", "fp16,fp8", "--format", "csv", "--hw", "h200");
        assertThat(r.status()).isEqualTo(1);
        // Llama-3-8B at 1024 tokens: K and V of 8 heads x 128 per token and layer, 32 layers: 2 x 1024 x 8 x 128 x 32
        // = 67,108,864 elements; plus q and the output, 2 x 4096 FP16 per layer = 524,288 B; at 4.8 TB/s:
        // FP16 (134,217,728 + 524,288) B = 28.071 us, FP8 (67,108,864 + 524,288) B = 14.090 us
        assertThat(r.out())
                .contains(
                        "FP16 weights, FP16 KV, batch 1, context 1024, predicted on the H200 datasheet\",attention,64,"
                                + "28.071,")
                .contains("FP16 weights, FP8 E4M3 KV, batch 1, context 1024, predicted on the H200 datasheet\","
                        + "attention,64,14.090,");
    }

    @Test
    void aCheckpointNamesTheModelAndTheWeightsFormat(@TempDir Path dir) throws IOException {
        assumeFalse(Cuda.isAvailable(), "a GPU is present: the command would measure");
        // 2 layers, hidden 256, 4 heads on 2 KV heads of 64, intermediate 512, vocab 1000, BF16 weights
        Path checkpoint = LlamaCheckpoint.random(new DecoderShape(2, 256, 4, 2, 64, 512, 1000), Dtype.BF16, 1)
                .write(dir.resolve("tiny"));
        MeasureCommandTest.Run r =
                MeasureCommandTest.run("decode", "--checkpoint", checkpoint.toString(), "--format", "csv");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).endsWith(" - nothing measured\n");
        // 2 layers: 2 x 2 + 1 norms + 8 other launches per layer x 2 + lm_head = 22
        assertThat(r.out())
                .contains("BF16 weights, FP16 KV, batch 1, context 1024")
                .contains(",step,22,");
    }

    @Test
    void weightsAndACheckpointTogetherAreAUsageError(@TempDir Path dir) {
        MeasureCommandTest.Run r =
                MeasureCommandTest.run("decode", "--checkpoint", dir.toString(), "--weights", "NVFP4");
        assertThat(r.status()).isNotZero();
        assertThat(r.err()).contains("--weights and --checkpoint");
    }

    @Test
    void csvWithACalibrationCheckIsAUsageError(@TempDir Path dir) {
        MeasureCommandTest.Run r = MeasureCommandTest.run(
                "decode",
                "--format",
                "csv",
                "--calibrate",
                dir.resolve("c.json").toString());
        assertThat(r.status()).isNotZero();
        assertThat(r.err()).contains("--format csv holds one table");
    }

    @Test
    void aCheckpointWithoutConfigJsonIsAUsageError(@TempDir Path dir) {
        MeasureCommandTest.Run r = MeasureCommandTest.run("decode", "--checkpoint", dir.toString());
        assertThat(r.status()).isNotZero();
        assertThat(r.err()).contains("--checkpoint").contains("no config.json there");
    }

    @Test
    void withoutAGpuItPrintsThePredictionPerOperatorAndSaysNothingWasMeasured() {
        assumeFalse(Cuda.isAvailable(), "a GPU is present: the command would measure");
        MeasureCommandTest.Run r = MeasureCommandTest.run(
                "decode", "--weights", "FP16", "--batch", "1,8", "--format", "csv", "--hw", "h200");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).endsWith(" - nothing measured\n").hasLineCount(1);
        // Llama-3-8B, batch 1, context 1024, FP16 on the H200 datasheet (4.8 TB/s): lm_head reads 128256 x 4096 x 2 B
        // = 1,050,673,152 B of weights, 8 KiB of input and 256,512 B of logits: 1,050,937,856 B / 4.8e12 B/s = 218.946
        // us
        assertThat(r.out()).contains(",lm_head,1,218.945,,,");
        // the launches the one-GPU decoder makes. Batch 1, FP16: the norms and RoPE run in the products, so layer 0's
        // input norm, 2 x 32 attention launches, 5 one-launch operators x 32 (qkv, o, gate/up, silu, down), lm_head:
        // 226. Batch 8 (cuBLASLt): 2 x 32 + 1 norms, 2 x 32 attention launches, 6 one-launch operators x 32, lm_head:
        // 322
        assertThat(r.out())
                .contains("batch 1, context 1024, predicted on the H200 datasheet\",add + rmsnorm,1,")
                .contains("batch 1, context 1024, predicted on the H200 datasheet\",rope + kv append,0,")
                .contains("batch 1, context 1024, predicted on the H200 datasheet\",step,226,")
                .contains("batch 8, context 1024, predicted on the H200 datasheet\",rope + kv append,32,")
                .contains("batch 8, context 1024, predicted on the H200 datasheet\",step,322,");
    }
}
