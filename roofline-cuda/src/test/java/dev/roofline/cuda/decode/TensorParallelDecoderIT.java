package dev.roofline.cuda.decode;

import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.CudaGraph;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.KvCacheFormat;
import dev.roofline.cuda.kernels.WeightFormat;
import dev.roofline.cuda.nccl.Communicators;
import dev.roofline.cuda.nccl.DataType;
import dev.roofline.cuda.nccl.Nccl;
import dev.roofline.cuda.nccl.ReduceOp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two GPUs each running half of a model ({@link DecoderShape#shard}: half the heads, MLP columns and vocabulary, with
 * NCCL all-reduces completing o and down) against the CPU reference of the whole model, step after step from position
 * 0; the last step is replayed from each GPU's CUDA graph, NCCL inside, as the benchmark runs it. The weights are
 * rounded to FP16 first, so both sides multiply the same values; the bound is DenseDecoderIT's 2 %.
 */
@RequiresGpu
class TensorParallelDecoderIT {
    private static final int LAYERS = 2;
    private static final int TP = 2;
    private static final int STEPS = 8;
    private static final ReferenceDecoder.Config CONFIG =
            new ReferenceDecoder.Config(256, 4, 2, 64, 512, 1000, 1e-5, RopeFrequencies.of(64, 10_000));
    private static final DecoderShape SHAPE = new DecoderShape(LAYERS, 256, 4, 2, 64, 512, 1000);

    /** Batch 1 with FP16 weights is where one GPU fuses its norms into the products; a split GPU must not. */
    @ParameterizedTest(name = "batch {0}")
    @ValueSource(ints = {1, 3})
    void twoGpusTogetherGiveTheWholeModelsLogits(int batch) {
        assumeTrue(Nccl.isAvailable(), () -> Nccl.unavailableReason().orElse(""));
        assumeTrue(Cuda.deviceCount() >= TP, "one GPU: nothing to split over");
        ReferenceDecoder.Weights whole = fp16(ReferenceDecoder.Weights.random(CONFIG, LAYERS, 42));
        short[][] inputs = new short[STEPS][];
        SplittableRandom rnd = new SplittableRandom(5);
        for (int t = 0; t < STEPS; t++) {
            inputs[t] = new short[batch * CONFIG.hidden()];
            for (int i = 0; i < inputs[t].length; i++) {
                inputs[t][i] = Float.floatToFloat16((float) rnd.nextGaussian());
            }
        }
        DecoderShape part = SHAPE.shard(TP);
        List<short[][]> logits;
        try (Communicators gpus = Communicators.ofDevices(0, 1)) {
            logits = gpus.onEachRank(comm -> {
                try (OwnedResources owned = new OwnedResources();
                        Stream stream = Stream.create()) {
                    DecoderWeights w = owned.add(upload(shard(whole, comm.rank())));
                    DenseDecoder d = owned.add(DenseDecoder.create(
                            Cuda.device(comm.device()),
                            part,
                            w,
                            CONFIG.invFreq(),
                            (float) CONFIG.eps(),
                            batch,
                            STEPS,
                            KvCacheFormat.FP16,
                            KernelLaunch.PROGRAMMATIC,
                            (b, n, s) -> comm.allReduce(b, b, n, DataType.FLOAT16, ReduceOp.SUM, s)));
                    assertThat(d.fusesNorms()).isFalse();
                    short[][] out = new short[STEPS][];
                    for (int t = 0; t < STEPS; t++) {
                        int[] positions = new int[batch];
                        Arrays.fill(positions, t);
                        d.setInput(inputs[t]);
                        d.setPositions(positions);
                        if (t < STEPS - 1) {
                            d.step(stream);
                        } else {
                            try (CudaGraph graph = stream.capture(() -> d.step(stream))) {
                                graph.launch(stream);
                                stream.synchronize();
                            }
                        }
                        stream.synchronize();
                        out[t] = d.logits().toShortArray();
                    }
                    return out;
                }
            });
        }
        ReferenceDecoder reference = new ReferenceDecoder(CONFIG, whole, batch, STEPS);
        int v = CONFIG.vocab() / TP;
        for (int t = 0; t < STEPS; t++) {
            int[] positions = new int[batch];
            Arrays.fill(positions, t);
            double[] expected = reference.step(StepByStep.fp16(inputs[t]), positions);
            double[] got = new double[batch * CONFIG.vocab()];
            for (int r = 0; r < TP; r++) {
                double[] mine = StepByStep.fp16(logits.get(r)[t]);
                for (int b = 0; b < batch; b++) {
                    System.arraycopy(mine, b * v, got, b * CONFIG.vocab() + r * v, v);
                }
            }
            assertThat(Arrays.stream(got).allMatch(Double::isFinite))
                    .as("finite logits, step " + t)
                    .isTrue();
            assertThat(StepByStep.relativeError(got, expected))
                    .as("||logits - ref|| / ||ref||, step " + t)
                    .isLessThan(0.02);
        }
    }

    /** Every matrix and norm rounded to FP16, as the GPU will hold them. */
    private static ReferenceDecoder.Weights fp16(ReferenceDecoder.Weights w) {
        List<ReferenceDecoder.Layer> layers = new ArrayList<>();
        for (ReferenceDecoder.Layer l : w.layers()) {
            layers.add(new ReferenceDecoder.Layer(
                    round(l.inputNorm()),
                    round(l.wqkv()),
                    round(l.wo()),
                    round(l.postNorm()),
                    round(l.wgu()),
                    round(l.wd())));
        }
        return new ReferenceDecoder.Weights(layers, round(w.finalNorm()), round(w.lmHead()));
    }

    private static double[] round(double[] v) {
        double[] r = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            r[i] = Float.float16ToFloat(Float.floatToFloat16((float) v[i]));
        }
        return r;
    }

    /**
     * GPU {@code r}'s slices of {@code w}: its query heads' and KV heads' rows of q/k/v, the matching columns of o, its
     * MLP columns' gate and up rows and down columns, its part of the vocabulary's lm_head rows; norms whole.
     */
    static ReferenceDecoder.Weights shard(ReferenceDecoder.Weights w, int r) {
        int h = CONFIG.hidden();
        int d = CONFIG.headDim();
        int q = CONFIG.heads() / TP * d;
        int kv = CONFIG.kvHeads() / TP * d;
        int inter = CONFIG.intermediate();
        int part = inter / TP;
        List<ReferenceDecoder.Layer> layers = new ArrayList<>();
        for (ReferenceDecoder.Layer l : w.layers()) {
            int qRows = CONFIG.heads() * d;
            int kvRows = CONFIG.kvHeads() * d;
            double[] qkv = concat(
                    rows(l.wqkv(), h, r * q, q),
                    rows(l.wqkv(), h, qRows + r * kv, kv),
                    rows(l.wqkv(), h, qRows + kvRows + r * kv, kv));
            double[] gu = concat(rows(l.wgu(), h, r * part, part), rows(l.wgu(), h, inter + r * part, part));
            layers.add(new ReferenceDecoder.Layer(
                    l.inputNorm(),
                    qkv,
                    columns(l.wo(), h, qRows, r * q, q),
                    l.postNorm(),
                    gu,
                    columns(l.wd(), h, inter, r * part, part)));
        }
        int v = CONFIG.vocab() / TP;
        return new ReferenceDecoder.Weights(layers, w.finalNorm(), rows(w.lmHead(), h, r * v, v));
    }

    private static DecoderWeights upload(ReferenceDecoder.Weights w) {
        DecoderShape part = SHAPE.shard(TP);
        int h = part.hidden();
        List<double[]> ignored = new ArrayList<>();
        try (OwnedResources partial = new OwnedResources()) {
            List<DecoderWeights.Layer> layers = new ArrayList<>();
            for (ReferenceDecoder.Layer l : w.layers()) {
                layers.add(new DecoderWeights.Layer(
                        partial.add(StepByStep.vector(l.inputNorm(), ignored)),
                        partial.add(StepByStep.matrix(WeightFormat.FP16, l.wqkv(), part.qkvWidth(), h, ignored)),
                        partial.add(StepByStep.matrix(WeightFormat.FP16, l.wo(), h, part.attentionWidth(), ignored)),
                        partial.add(StepByStep.vector(l.postNorm(), ignored)),
                        partial.add(StepByStep.matrix(WeightFormat.FP16, l.wgu(), 2 * part.intermediate(), h, ignored)),
                        partial.add(StepByStep.matrix(WeightFormat.FP16, l.wd(), h, part.intermediate(), ignored))));
            }
            DecoderWeights d = new DecoderWeights(
                    layers,
                    partial.add(StepByStep.vector(w.finalNorm(), ignored)),
                    partial.add(StepByStep.matrix(WeightFormat.FP16, w.lmHead(), part.vocab(), h, ignored)));
            partial.release();
            return d;
        }
    }

    /** Rows {@code [from, from + n)} of a row-major matrix of {@code cols} columns. */
    private static double[] rows(double[] m, int cols, int from, int n) {
        return Arrays.copyOfRange(m, from * cols, (from + n) * cols);
    }

    /** Columns {@code [from, from + n)} of a row-major {@code rows × cols} matrix. */
    private static double[] columns(double[] m, int rows, int cols, int from, int n) {
        double[] out = new double[rows * n];
        for (int i = 0; i < rows; i++) {
            System.arraycopy(m, i * cols + from, out, i * n, n);
        }
        return out;
    }

    private static double[] concat(double[]... parts) {
        int n = 0;
        for (double[] p : parts) {
            n += p.length;
        }
        double[] out = new double[n];
        int at = 0;
        for (double[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
