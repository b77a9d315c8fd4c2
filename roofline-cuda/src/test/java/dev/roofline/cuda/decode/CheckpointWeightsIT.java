package dev.roofline.cuda.decode;

import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.WeightFormat;
import dev.roofline.quant.block.Fp8Tensor;
import dev.roofline.quant.block.Nvfp4Tensor;
import dev.roofline.quant.checkpoint.CheckpointQuantizer;
import dev.roofline.quant.checkpoint.QuantTarget;
import dev.roofline.quant.safetensors.Dtype;
import dev.roofline.quant.safetensors.SafetensorsFile;
import dev.roofline.quant.safetensors.ShardedCheckpoint;
import dev.roofline.quant.safetensors.TensorInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The GPU decoder on checkpoints loaded by {@link CheckpointWeights} against {@link ReferenceDecoder} in double on
 * the values those checkpoints' bytes decode to: a tiny BF16 Llama (2 layers, hidden 256, 4 query heads on 2 KV heads
 * of 64, intermediate 512, vocabulary 1000; each projection with its own magnitude) written here, and its NVFP4 (ModelOpt
 * and compressed-tensors) and FP8 (per channel and per tensor) quantizations by roofline-quant's
 * {@link CheckpointQuantizer}. The reference decodes the bytes with roofline-quant's {@link Nvfp4Tensor} and
 * {@link Fp8Tensor}, not with the loader, and the inputs are real tokens' embeddings from the checkpoint. As in
 * {@link DenseDecoderIT}, the last step replays a CUDA graph and the bound on ||logits - ref|| / ||ref|| is 2 %.
 */
@RequiresGpu
class CheckpointWeightsIT {
    private static final DecoderShape SHAPE = new DecoderShape(2, 256, 4, 2, 64, 512, 1000);
    private static final ReferenceDecoder.Config CONFIG = LlamaCheckpoint.config(SHAPE);
    private static final int STEPS = 8;
    private static final double TOLERANCE = 0.02;

    @TempDir
    static Path dir;

    @BeforeAll
    static void writeCheckpoints() throws IOException {
        Path bf16 = LlamaCheckpoint.random(SHAPE, Dtype.BF16, 42).write(dir.resolve("BF16"), 400_000);
        for (QuantTarget t : QuantTarget.values()) {
            CheckpointQuantizer.newBuilder(t).build().quantize(bf16, dir.resolve(t.name()));
        }
    }

    @ParameterizedTest(name = "{0} checkpoint, batch {1}, {2} launches")
    @CsvSource({
        "BF16, 1, PROGRAMMATIC",
        "BF16, 3, PROGRAMMATIC",
        "NVFP4_MODELOPT, 1, PROGRAMMATIC",
        "NVFP4_MODELOPT, 1, ORDERED",
        "NVFP4_MODELOPT, 3, PROGRAMMATIC",
        "NVFP4_MODELOPT, 3, ORDERED",
        "NVFP4_COMPRESSED_TENSORS, 2, PROGRAMMATIC",
        "FP8_PER_CHANNEL, 1, PROGRAMMATIC",
        "FP8_PER_CHANNEL, 3, PROGRAMMATIC",
        "FP8_PER_TENSOR, 2, ORDERED"
    })
    void logitsMatchTheReferenceOnTheCheckpointsValues(String checkpoint, int batch, KernelLaunch launch)
            throws IOException {
        Path p = dir.resolve(checkpoint);
        ReferenceDecoder reference = new ReferenceDecoder(CONFIG, referenceWeights(p), batch, STEPS);
        try (OwnedResources owned = new OwnedResources();
                Stream stream = Stream.create();
                CheckpointWeights loaded = CheckpointWeights.open(p, SHAPE)) {
            DecoderWeights weights = owned.add(loaded.upload());
            if (checkpoint.startsWith("NVFP4")) {
                assertThat(weights.layers().getFirst().qkv().parts())
                        .as("q, k and v with their own global scales")
                        .hasSize(3);
            }
            DenseDecoder decoder = owned.add(DenseDecoder.create(
                    Cuda.device(0), SHAPE, weights, CONFIG.invFreq(), (float) CONFIG.eps(), batch, STEPS, launch));
            SplittableRandom rnd = new SplittableRandom(7);
            StepByStep.compare(
                    decoder,
                    reference,
                    stream,
                    STEPS,
                    t -> loaded.embeddings()
                            .lookup(rnd.ints(batch, 0, SHAPE.vocab()).toArray()),
                    TOLERANCE,
                    checkpoint);
        }
    }

    @Test
    void loadGivesTheWeightsAndClosesTheFiles() throws IOException {
        try (DecoderWeights w = CheckpointWeights.load(dir.resolve("FP8_PER_CHANNEL"), SHAPE)) {
            assertThat(w.layers()).hasSize(2);
            assertThat(w.layers().getFirst().qkv().parts()).hasSize(1);
            assertThat(w.layers().getFirst().qkv().parts().getFirst().format()).isEqualTo(WeightFormat.FP8_E4M3);
            assertThat(w.lmHead().format()).isEqualTo(WeightFormat.BF16);
        }
    }

    /** The values the checkpoint's bytes stand for, decoded with roofline-quant's tensors; norms rounded to FP16. */
    private static ReferenceDecoder.Weights referenceWeights(Path p) throws IOException {
        int h = SHAPE.hidden();
        int kv = SHAPE.kvHeads() * SHAPE.headDim();
        int inter = SHAPE.intermediate();
        try (ShardedCheckpoint c = ShardedCheckpoint.open(p)) {
            List<ReferenceDecoder.Layer> layers = new ArrayList<>();
            for (int l = 0; l < SHAPE.layers(); l++) {
                String m = "model.layers." + l + ".";
                layers.add(new ReferenceDecoder.Layer(
                        norm(c, m + "input_layernorm.weight"),
                        concat(
                                linear(c, m + "self_attn.q_proj", SHAPE.attentionWidth(), h),
                                linear(c, m + "self_attn.k_proj", kv, h),
                                linear(c, m + "self_attn.v_proj", kv, h)),
                        linear(c, m + "self_attn.o_proj", h, SHAPE.attentionWidth()),
                        norm(c, m + "post_attention_layernorm.weight"),
                        concat(linear(c, m + "mlp.gate_proj", inter, h), linear(c, m + "mlp.up_proj", inter, h)),
                        linear(c, m + "mlp.down_proj", h, inter)));
            }
            return new ReferenceDecoder.Weights(
                    layers, norm(c, "model.norm.weight"), linear(c, "lm_head", SHAPE.vocab(), h));
        }
    }

    /** Module {@code m}'s weight values: NVFP4 (ModelOpt or compressed-tensors), FP8 or 16-bit floats. */
    private static double[] linear(ShardedCheckpoint c, String m, int rows, int cols) throws IOException {
        if (c.contains(m + ".weight_packed")) {
            float global = 1f / floats(c, m + ".weight_global_scale")[0];
            return doubles(
                    new Nvfp4Tensor(rows, cols, bytes(c, m + ".weight_packed"), bytes(c, m + ".weight_scale"), global)
                            .dequantize());
        }
        TensorInfo w = c.tensor(m + ".weight");
        return switch (w.dtype()) {
            case U8 ->
                doubles(new Nvfp4Tensor(
                                rows,
                                cols,
                                bytes(c, m + ".weight"),
                                bytes(c, m + ".weight_scale"),
                                floats(c, m + ".weight_scale_2")[0])
                        .dequantize());
            case F8_E4M3 ->
                doubles(new Fp8Tensor(
                                Precision.FP8_E4M3, rows, cols, bytes(c, m + ".weight"), floats(c, m + ".weight_scale"))
                        .dequantize());
            default -> doubles(floats(c, m + ".weight"));
        };
    }

    private static double[] norm(ShardedCheckpoint c, String name) throws IOException {
        float[] stored = floats(c, name);
        double[] fp16 = new double[stored.length];
        for (int i = 0; i < stored.length; i++) {
            fp16[i] = Float.float16ToFloat(Float.floatToFloat16(stored[i]));
        }
        return fp16;
    }

    private static byte[] bytes(ShardedCheckpoint c, String name) throws IOException {
        SafetensorsFile f = c.fileOf(name);
        return f.segment(name).toArray(ValueLayout.JAVA_BYTE);
    }

    private static float[] floats(ShardedCheckpoint c, String name) throws IOException {
        return c.fileOf(name).floats(name);
    }

    private static double[] doubles(float[] f) {
        double[] d = new double[f.length];
        for (int i = 0; i < f.length; i++) {
            d[i] = f[i];
        }
        return d;
    }

    private static double[] concat(double[]... parts) {
        return Arrays.stream(parts).flatMapToDouble(Arrays::stream).toArray();
    }
}
