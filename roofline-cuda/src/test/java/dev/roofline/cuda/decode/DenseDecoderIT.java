package dev.roofline.cuda.decode;

import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.KvCacheFormat;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A whole tiny decoder on the GPU ({@link DenseDecoder}: 2 layers, hidden 256, 4 query heads on 2 KV heads of 64,
 * intermediate 512, vocabulary 1000) against {@link ReferenceDecoder} in double on the same weights: each matrix is
 * quantized to the format under test and the reference multiplies the values the bytes decode to, so the comparison
 * checks the engine (its layouts, fusions, cache and positions), not the format's rounding. Steps run one token at a
 * time from position 0, so every step's attention reads what the earlier steps appended; the last one is replayed
 * from a CUDA graph, as the benchmark runs it. The GPU keeps activations in
 * FP16 (relative step 2^-11) through about 20 roundings per layer; the bound on ||logits - ref|| / ||ref|| is 2 %.
 */
@RequiresGpu
class DenseDecoderIT {
    private static final int LAYERS = 2;
    private static final ReferenceDecoder.Config CONFIG =
            new ReferenceDecoder.Config(256, 4, 2, 64, 512, 1000, 1e-5, RopeFrequencies.of(64, 10_000));
    private static final DecoderShape SHAPE = new DecoderShape(LAYERS, 256, 4, 2, 64, 512, 1000);
    private static final int STEPS = 12;
    private static final double TOLERANCE = 0.02;

    @ParameterizedTest(name = "{0} weights, batch {1}, {2} launches")
    @CsvSource({
        "FP16, 1, ORDERED",
        "FP16, 1, PROGRAMMATIC",
        "FP16, 3, PROGRAMMATIC",
        "FP16, 17, PROGRAMMATIC",
        "BF16, 2, PROGRAMMATIC",
        "FP8_E4M3, 1, PROGRAMMATIC",
        "FP8_E4M3, 1, ORDERED",
        "FP8_E4M3, 3, PROGRAMMATIC",
        "INT8, 2, ORDERED",
        "INT4, 2, PROGRAMMATIC",
        "NVFP4, 3, PROGRAMMATIC",
        "NVFP4, 3, ORDERED",
        "MXFP4, 2, PROGRAMMATIC",
        "NVFP4, 32, PROGRAMMATIC",
        "FP8_E4M3, 20, PROGRAMMATIC",
        "BF16, 32, PROGRAMMATIC"
    })
    void logitsMatchTheCpuReferenceStepAfterStep(WeightFormat format, int batch, KernelLaunch launch) {
        ReferenceDecoder.Weights random = ReferenceDecoder.Weights.random(CONFIG, LAYERS, 42);
        List<double[]> values = new ArrayList<>();
        try (OwnedResources owned = new OwnedResources();
                Stream stream = Stream.create()) {
            DecoderWeights gpuWeights = owned.add(upload(random, format, values));
            ReferenceDecoder reference = new ReferenceDecoder(CONFIG, referenceWeights(values), batch, STEPS);
            DenseDecoder decoder = owned.add(DenseDecoder.create(
                    Cuda.device(0), SHAPE, gpuWeights, CONFIG.invFreq(), (float) CONFIG.eps(), batch, STEPS, launch));
            boolean fused = batch == 1 && (format == WeightFormat.FP16 || format == WeightFormat.FP8_E4M3);
            assertThat(decoder.fusesRope()).as("RoPE in the q/k/v product").isEqualTo(fused);
            assertThat(decoder.fusesNorms())
                    .as("norms in the products")
                    .isEqualTo(batch == 1 && (format == WeightFormat.FP16 || format == WeightFormat.FP8_E4M3));
            assertThat(decoder.launches(DecoderOperator.ROPE_APPEND))
                    .as("RoPE launches a step")
                    .isEqualTo(fused ? 0 : LAYERS);
            StepByStep.compare(
                    decoder, reference, stream, STEPS, gaussianInputs(batch, 7), TOLERANCE, format.toString());
        }
    }

    /**
     * BF16 and FP8 KV caches against a reference whose cache rounds each key and value as the format does
     * ({@link ReferenceDecoder#ReferenceDecoder(ReferenceDecoder.Config, ReferenceDecoder.Weights, int, int,
     * KvCacheFormat)}). The GPU rounds k and v to FP16 before the cache's own rounding, so where the two land on either
     * side of an E4M3 rounding boundary an element differs by one E4M3 step (2^-3 relative): the FP8 bound is 3 %.
     */
    @ParameterizedTest(name = "{0} KV cache, scales {1} and {2}, batch {3}, {4} launches")
    @CsvSource({
        "BF16, 1, 1, 2, PROGRAMMATIC",
        "FP8_E4M3, 1, 1, 3, PROGRAMMATIC",
        "FP8_E4M3, 0.25, 0.125, 1, ORDERED",
        "FP8_E4M3, 0.25, 0.125, 17, PROGRAMMATIC"
    })
    void logitsMatchTheReferenceWithAKvCacheOf(
            Precision precision, float keyScale, float valueScale, int batch, KernelLaunch launch) {
        KvCacheFormat kv = new KvCacheFormat(precision, keyScale, valueScale);
        ReferenceDecoder.Weights random = ReferenceDecoder.Weights.random(CONFIG, LAYERS, 43);
        List<double[]> values = new ArrayList<>();
        try (OwnedResources owned = new OwnedResources();
                Stream stream = Stream.create()) {
            DecoderWeights gpuWeights = owned.add(upload(random, WeightFormat.FP16, values));
            ReferenceDecoder reference = new ReferenceDecoder(CONFIG, referenceWeights(values), batch, STEPS, kv);
            DenseDecoder decoder = owned.add(DenseDecoder.create(
                    Cuda.device(0),
                    SHAPE,
                    gpuWeights,
                    CONFIG.invFreq(),
                    (float) CONFIG.eps(),
                    batch,
                    STEPS,
                    kv,
                    launch));
            StepByStep.compare(
                    decoder,
                    reference,
                    stream,
                    STEPS,
                    gaussianInputs(batch, 11),
                    precision == Precision.FP8_E4M3 ? 0.03 : TOLERANCE,
                    kv + " KV");
        }
    }

    @Test
    void weightsOfTheWrongShapeAreNamedWithTheirLayer() {
        ReferenceDecoder.Weights random = ReferenceDecoder.Weights.random(CONFIG, LAYERS, 1);
        try (DecoderWeights w = upload(random, WeightFormat.FP16, new ArrayList<>())) {
            DecoderShape wider = new DecoderShape(LAYERS, 256, 4, 2, 64, 1024, 1000);
            assertThatThrownBy(() -> DenseDecoder.create(
                            Cuda.device(0), wider, w, CONFIG.invFreq(), 1e-5f, 1, 8, KernelLaunch.ORDERED))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("gate_up of layer 0 must be 2048 x 256, got 1024 x 256");
        }
    }

    /**
     * The step less one operator ({@link DenseDecoder#stepWithout}) skips that operator's launches only: without
     * {@code lm_head} the logits stay as they were (zero here); without the attention the step reads the attention
     * output an earlier step left (here another token's), so its logits differ from the whole step's on the same input;
     * the whole step after them gives its logits again (within the FP32 atomics' summation order: 1e-3).
     */
    @Test
    void theStepWithoutAnOperatorSkipsItsLaunchesOnly() {
        ReferenceDecoder.Weights random = ReferenceDecoder.Weights.random(CONFIG, LAYERS, 44);
        java.util.function.IntFunction<short[]> inputs = gaussianInputs(1, 5);
        short[] x0 = inputs.apply(0);
        short[] x1 = inputs.apply(1);
        try (DecoderWeights w = upload(random, WeightFormat.FP8_E4M3, new ArrayList<>());
                Stream stream = Stream.create();
                DenseDecoder d = DenseDecoder.create(
                        Cuda.device(0), SHAPE, w, CONFIG.invFreq(), 1e-5f, 1, 8, KernelLaunch.PROGRAMMATIC)) {
            run(d, 0, x0, null, stream);
            short[] whole = run(d, 1, x1, null, stream);
            assertThat(relativeDifference(whole, new short[whole.length]))
                    .as("the whole step's logits")
                    .isEqualTo(1.0);

            d.logits().fill(0);
            assertThat(run(d, 1, x1, DecoderOperator.LM_HEAD, stream))
                    .as("logits without lm_head")
                    .isEqualTo(new short[whole.length]);

            run(d, 1, x0, null, stream);
            assertThat(relativeDifference(run(d, 1, x1, DecoderOperator.ATTENTION, stream), whole))
                    .as("logits without the attention against the whole step's")
                    .isGreaterThan(0.05);

            assertThat(relativeDifference(run(d, 1, x1, null, stream), whole))
                    .as("the whole step again")
                    .isLessThan(1e-3);

            assertThatThrownBy(() -> d.stepWithout(DecoderOperator.ROUTER, stream))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("ROUTER is not an operator of this decoder's step");
        }
    }

    /** One step at {@code position} on input {@code x}, without {@code skipped} unless null; its logits. */
    private static short[] run(DenseDecoder d, int position, short[] x, DecoderOperator skipped, Stream stream) {
        d.setPositions(new int[] {position});
        d.setInput(x);
        if (skipped == null) {
            d.step(stream);
        } else {
            d.stepWithout(skipped, stream);
        }
        stream.synchronize();
        return d.logits().toShortArray();
    }

    /** ||a - b|| / ||b|| over FP16 values (1 when b is all zero and a is not). */
    private static double relativeDifference(short[] a, short[] b) {
        double diff = 0, norm = 0;
        for (int i = 0; i < a.length; i++) {
            double x = Float.float16ToFloat(a[i]), y = Float.float16ToFloat(b[i]);
            diff += (x - y) * (x - y);
            norm += y * y;
        }
        return norm == 0 ? (diff == 0 ? 0 : 1) : Math.sqrt(diff / norm);
    }

    @Test
    void aPositionBeyondTheCapacityIsRefused() {
        ReferenceDecoder.Weights random = ReferenceDecoder.Weights.random(CONFIG, LAYERS, 1);
        try (DecoderWeights w = upload(random, WeightFormat.FP16, new ArrayList<>());
                DenseDecoder d = DenseDecoder.create(
                        Cuda.device(0), SHAPE, w, CONFIG.invFreq(), 1e-5f, 2, 8, KernelLaunch.ORDERED)) {
            assertThatThrownBy(() -> d.setPositions(new int[] {3, 8}))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("positions[1] must be in [0, 8), got 8");
        }
    }

    @Test
    void aBatchAbove32WithFourBitWeightsIsRefused() {
        ReferenceDecoder.Weights random = ReferenceDecoder.Weights.random(CONFIG, LAYERS, 1);
        try (DecoderWeights w = upload(random, WeightFormat.NVFP4, new ArrayList<>())) {
            assertThatThrownBy(() -> DenseDecoder.create(
                            Cuda.device(0), SHAPE, w, CONFIG.invFreq(), 1e-5f, 33, 8, KernelLaunch.ORDERED))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("NVFP4 weights run batches of up to 32");
        }
    }

    /** Each step's input rows: standard normal values rounded to FP16, seeded. */
    private static java.util.function.IntFunction<short[]> gaussianInputs(int batch, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        return t -> {
            short[] x = new short[batch * CONFIG.hidden()];
            for (int i = 0; i < x.length; i++) {
                x[i] = Float.floatToFloat16((float) rnd.nextGaussian());
            }
            return x;
        };
    }

    /**
     * The reference's weights on the device: matrices quantized to {@code format} (lm_head in FP16), norms in FP16;
     * {@code values} receives what each uploaded tensor decodes to, in the order {@link #referenceWeights} reads.
     */
    private static DecoderWeights upload(ReferenceDecoder.Weights w, WeightFormat format, List<double[]> values) {
        int h = CONFIG.hidden();
        try (OwnedResources partial = new OwnedResources()) {
            List<DecoderWeights.Layer> layers = new ArrayList<>();
            for (ReferenceDecoder.Layer l : w.layers()) {
                layers.add(new DecoderWeights.Layer(
                        partial.add(StepByStep.vector(l.inputNorm(), values)),
                        partial.add(StepByStep.matrix(format, l.wqkv(), CONFIG.qkvWidth(), h, values)),
                        partial.add(StepByStep.matrix(format, l.wo(), h, CONFIG.heads() * CONFIG.headDim(), values)),
                        partial.add(StepByStep.vector(l.postNorm(), values)),
                        partial.add(StepByStep.matrix(format, l.wgu(), 2 * CONFIG.intermediate(), h, values)),
                        partial.add(StepByStep.matrix(format, l.wd(), h, CONFIG.intermediate(), values))));
            }
            DecoderWeights d = new DecoderWeights(
                    layers,
                    partial.add(StepByStep.vector(w.finalNorm(), values)),
                    partial.add(StepByStep.matrix(WeightFormat.FP16, w.lmHead(), CONFIG.vocab(), h, values)));
            partial.release();
            return d;
        }
    }

    private static ReferenceDecoder.Weights referenceWeights(List<double[]> v) {
        List<ReferenceDecoder.Layer> layers = new ArrayList<>();
        for (int l = 0; l < LAYERS; l++) {
            int i = 6 * l;
            layers.add(new ReferenceDecoder.Layer(
                    v.get(i), v.get(i + 1), v.get(i + 2), v.get(i + 3), v.get(i + 4), v.get(i + 5)));
        }
        return new ReferenceDecoder.Weights(layers, v.get(6 * LAYERS), v.get(6 * LAYERS + 1));
    }
}
