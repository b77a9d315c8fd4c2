package dev.roofline.cuda.kernels;

import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.decode.ExpertRouting;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The MoE kernels against host computations on the same inputs: the top-k kernel against {@link ExpertRouting} on the
 * FP16 logits it reads (the same choice, ties included, and weights to FP32 rounding), and the grouped GEMVs against
 * each slot's expert applied in double to the values its bytes decode to (FP32 accumulation, FP16 gate/up outputs:
 * bounds of a few FP16 steps). Routings are made on the host so the GEMVs are tested on their own; the experts no
 * token picks hold NaN, which would reach every output if a block applied them.
 */
@RequiresGpu
class MoeKernelsIT {
    private static final int EXPERTS = 4;
    private static final int TOP_K = 2;
    private static final int HIDDEN = 256;
    private static final int INTER = 512;
    private static MoeKernels moe;
    private static Stream stream;

    @BeforeAll
    static void open() {
        moe = MoeKernels.load(KernelLaunch.PROGRAMMATIC);
        stream = Stream.create();
    }

    @AfterAll
    static void close() {
        stream.close();
        moe.close();
    }

    @Test
    void topKPicksWhatTheHostRulePicksTiesAndNaNIncluded() {
        int experts = 40; // more than one per lane: lanes 0..7 hold two each
        int rows = 6;
        SplittableRandom rnd = new SplittableRandom(3);
        short[] logits = new short[rows * experts];
        for (int i = 0; i < logits.length; i++) {
            logits[i] = Float.floatToFloat16((float) (2 * rnd.nextGaussian()));
        }
        // row 1: experts 5, 17 and 33 tie at the top; row 2: a NaN where the maximum would be; row 3: all equal
        Arrays.fill(logits, experts, 2 * experts, Float.floatToFloat16(-1f));
        for (int e : new int[] {33, 17, 5}) {
            logits[experts + e] = Float.floatToFloat16(4f);
        }
        logits[2 * experts + 9] = Float.floatToFloat16(Float.NaN);
        Arrays.fill(logits, 3 * experts, 4 * experts, Float.floatToFloat16(0.5f));
        for (int k : new int[] {1, 2, 8}) {
            try (DeviceBuffer l = Halves.upload(logits);
                    DeviceBuffer ids = DeviceBuffer.allocate(4L * rows * k);
                    DeviceBuffer w = DeviceBuffer.allocate(4L * rows * k)) {
                moe.topK(l, ids, w, rows, experts, k, stream);
                stream.synchronize();
                ExpertRouting.Routing ref = ExpertRouting.route(Halves.decode(logits), rows, experts, k);
                assertThat(ids.toIntArray()).as("expert ids, top %d", k).containsExactly(ref.ids());
                float[] got = w.toFloatArray();
                for (int i = 0; i < got.length; i++) {
                    assertThat((double) got[i]).as("weight %d, top %d", i, k).isCloseTo(ref.weights()[i], within(1e-5));
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} experts, {1} tokens")
    @CsvSource({
        "FP16, 1",
        "FP16, 5",
        "BF16, 3",
        "FP8_E4M3, 1",
        "FP8_E4M3, 5",
        "INT8, 4",
        "INT4, 1",
        "INT4, 5",
        "NVFP4, 1",
        "NVFP4, 5",
        "NVFP4, 16"
    })
    void groupedGemvsApplyEachSlotsExpertOnce(WeightFormat format, int rows) {
        SplittableRandom rnd = new SplittableRandom(rows * 31L + format.ordinal());
        int[] ids = routing(rnd, rows);
        boolean[] picked = new boolean[EXPERTS];
        for (int e : ids) {
            picked[e] = true;
        }
        float[] weights = new float[rows * TOP_K];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = (float) rnd.nextDouble(0.1, 1);
        }
        QuantizedWeights gateUp = stack(format, 2 * INTER, HIDDEN, picked, rnd);
        QuantizedWeights down = stack(format, HIDDEN, INTER, picked, rnd);
        short[] x = Halves.gaussian(rnd, rows * HIDDEN, 1);
        short[] act = Halves.gaussian(rnd, rows * TOP_K * INTER, 1);
        try (DeviceWeights gu = gateUp.upload();
                DeviceWeights dn = down.upload();
                DeviceBuffer dx = Halves.upload(x);
                DeviceBuffer da = Halves.upload(act);
                DeviceBuffer dIds = DeviceBuffer.allocate(4L * ids.length);
                DeviceBuffer dW = DeviceBuffer.allocate(4L * weights.length);
                DeviceBuffer y = DeviceBuffer.allocate(2L * rows * TOP_K * 2 * INTER);
                DeviceBuffer out = DeviceBuffer.allocate(4L * rows * TOP_K * HIDDEN);
                DeviceBuffer delta = DeviceBuffer.allocate(2L * rows * HIDDEN)) {
            dIds.copyFrom(ids);
            dW.copyFrom(weights);
            moe.up(gu, EXPERTS, dx, dIds, y, rows, TOP_K, stream);
            moe.down(dn, EXPERTS, da, dIds, dW, out, rows, TOP_K, stream);
            moe.combine(out, delta, rows, HIDDEN, TOP_K, stream);
            stream.synchronize();
            String what = format + ", " + rows + " tokens, routing " + Arrays.toString(ids);
            double[] refUp = new double[rows * TOP_K * 2 * INTER];
            double[] refDown = new double[rows * TOP_K * HIDDEN];
            double[] refDelta = new double[rows * HIDDEN];
            for (int s = 0; s < rows * TOP_K; s++) {
                int b = s / TOP_K;
                apply(
                        gateUp.values(),
                        ids[s] * 2 * INTER,
                        2 * INTER,
                        HIDDEN,
                        Halves.decode(x),
                        b * HIDDEN,
                        refUp,
                        s,
                        1);
                apply(
                        down.values(),
                        ids[s] * HIDDEN,
                        HIDDEN,
                        INTER,
                        Halves.decode(act),
                        s * INTER,
                        refDown,
                        s,
                        weights[s]);
                for (int n = 0; n < HIDDEN; n++) {
                    refDelta[b * HIDDEN + n] += refDown[s * HIDDEN + n];
                }
            }
            check("gate/up, " + what, Halves.decode(y.toShortArray()), refUp);
            float[] o = out.toFloatArray();
            double[] got = new double[o.length];
            for (int i = 0; i < o.length; i++) {
                got[i] = o[i];
            }
            check("weighted down, " + what, got, refDown);
            check("combined delta, " + what, Halves.decode(delta.toShortArray()), refDelta);
        }
    }

    /** Each token's {@link #TOP_K} distinct experts, drawn at random (so some experts may go unpicked). */
    private static int[] routing(SplittableRandom rnd, int rows) {
        int[] ids = new int[rows * TOP_K];
        for (int b = 0; b < rows; b++) {
            int first = rnd.nextInt(EXPERTS);
            int second = (first + 1 + rnd.nextInt(EXPERTS - 1)) % EXPERTS;
            ids[b * TOP_K] = first;
            ids[b * TOP_K + 1] = second;
        }
        if (rows == 1) { // one token picks 2 of 4: make the unpicked ones the first and the last
            ids[0] = 2;
            ids[1] = 1;
        }
        return ids;
    }

    /**
     * {@link #EXPERTS} random {@code n × k} matrices stacked and quantized as one matrix; the experts not picked hold
     * NaN in the FP16 and BF16 formats (whose bytes are the values), so that applying one shows; the quantized formats
     * keep their random values, which a wrong expert offset would still put into the outputs.
     */
    private static QuantizedWeights stack(WeightFormat f, int n, int k, boolean[] picked, SplittableRandom rnd) {
        float[] w = new float[EXPERTS * n * k];
        double bound = 1 / Math.sqrt(k);
        for (int e = 0; e < EXPERTS; e++) {
            boolean poison = !picked[e] && (f == WeightFormat.FP16 || f == WeightFormat.BF16);
            for (int i = e * n * k; i < (e + 1) * n * k; i++) {
                w[i] = poison ? Float.NaN : (float) rnd.nextDouble(-bound, bound);
            }
        }
        return QuantizedWeights.quantize(f, w, EXPERTS * n, k);
    }

    /** {@code y[slot][0..n) = scale · x[from .. from + k) · w[row .. row + n)ᵀ}. */
    private static void apply(
            float[] w, int row, int n, int k, double[] x, int from, double[] y, int slot, double scale) {
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < k; j++) {
                s += x[from + j] * w[(row + i) * k + j];
            }
            y[slot * n + i] = scale * s;
        }
    }

    private static void check(String what, double[] y, double[] ref) {
        Agreement.check(what, y, ref, 2e-3, 4e-3);
    }
}
