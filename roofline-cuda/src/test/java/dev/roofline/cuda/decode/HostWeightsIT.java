package dev.roofline.cuda.decode;

import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.Activation;
import dev.roofline.cuda.kernels.Agreement;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.GemvKernels;
import dev.roofline.cuda.kernels.GemvKernelsIT;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * q, k and v pieces ({@link QkvPieces}: 256, 128 and 128 rows of K = 512) stacked as the decoder stacks them
 * ({@link HostWeights#stack}) and uploaded as it uploads them ({@link HostWeights#upload}: tiled, as these 4-bit
 * formats and shapes allow), then multiplied at each rows bound of the tiled kernels (1, 8, 16, 32). NVFP4's pieces
 * share one global scale and INT4's have none, so each stack is one matrix of 512 rows; MXFP4's stay three parts (their
 * device scales end with each piece's row maxima), each multiplied into its rows of the output, as the decoder runs
 * them.
 *
 * <p>Each piece's outputs are bounded on their own, so that k, at half q's magnitude, cannot hide its errors behind
 * v's larger outputs. The reference multiplies in double the values roofline-quant decodes the pieces' bytes to by the
 * same FP16 activations. The kernels multiply the same decoded weights by the same activations and add the products
 * in FP32, so what remains is the outputs' rounding to FP16 (at most 2^-11 ≈ 4.9e-4 of each output, some 2e-4 in
 * the norm) and the FP32 summation order (roundings of 2^-24 over 512 terms of random sign: of the order of 1e-5 of an
 * output). {@link #RELATIVE} and {@link #WORST} hold that with a margin of four and more, while a piece in another's
 * rows, a global scale not the pieces' or row maxima not a piece's own err by the size of the outputs themselves.
 */
@RequiresGpu
class HostWeightsIT {
    private static final int K = 512;
    private static final long SEED = 20261127;
    /** Bound on ||y - ref|| / ||ref|| of one piece's outputs. */
    private static final double RELATIVE = 2e-3;
    /** Bound on max |y - ref| / max |ref| of one piece's outputs. */
    private static final double WORST = 4e-3;

    private static GemvKernels gemv;
    private static Stream stream;

    @BeforeAll
    static void open() {
        gemv = GemvKernels.load();
        stream = Stream.create();
    }

    @AfterAll
    static void close() {
        stream.close();
        gemv.close();
    }

    static java.util.stream.Stream<Arguments> cases() {
        return java.util.stream.Stream.of(WeightFormat.NVFP4, WeightFormat.MXFP4, WeightFormat.INT4)
                .flatMap(f -> java.util.stream.Stream.of(1, 8, 16, 32).map(m -> Arguments.of(f, m)));
    }

    @ParameterizedTest(name = "{0} q, k and v stacked and tiled, M={1}")
    @MethodSource("cases")
    void tiledStackMatchesTheDequantizedPieces(WeightFormat format, int m) {
        QkvPieces qkv = QkvPieces.random(format, K, SEED);
        List<HostWeights> stack = stackOf(qkv);
        short[] x = activations(m);
        double[] ref = GemvKernelsIT.reference(qkv.whole().values(), StepByStep.fp16(x), m, qkv.rows(), K);
        try (StackedWeights tiled = upload(stack, HostWeights::upload)) {
            assertThat(tiled.parts()).allMatch(DeviceWeights::tiled, "tiled");
            agreeByPiece(format + " tiled, M=" + m, qkv, m, outputs(tiled, x, m), ref);
        }
    }

    @ParameterizedTest(name = "{0} q, k and v stacked, row-major against tiled, M={1}")
    @MethodSource("cases")
    void rowMajorUploadOfTheStackGivesTheTiledOutputs(WeightFormat format, int m) {
        QkvPieces qkv = QkvPieces.random(format, K, SEED);
        List<HostWeights> stack = stackOf(qkv);
        short[] x = activations(m);
        try (StackedWeights tiled = upload(stack, HostWeights::upload);
                StackedWeights rowMajor = upload(stack, HostWeightsIT::rowMajor)) {
            assertThat(rowMajor.parts()).noneMatch(DeviceWeights::tiled, "tiled");
            agreeByPiece(
                    format + " row-major against tiled, M=" + m, qkv, m, outputs(rowMajor, x, m), outputs(tiled, x, m));
        }
    }

    /**
     * {@link HostWeights#stack} of the pieces, checked to be the stack the test is about: NVFP4 and INT4 one matrix of
     * all rows (NVFP4's under the pieces' one global scale), MXFP4 the three pieces.
     */
    private static List<HostWeights> stackOf(QkvPieces qkv) {
        List<HostWeights> stack = HostWeights.stack(qkv.pieces());
        WeightFormat f = qkv.whole().format();
        if (f == WeightFormat.MXFP4) {
            assertThat(stack)
                    .as("MXFP4 parts")
                    .extracting(HostWeights::rows)
                    .containsExactly(Arrays.stream(QkvPieces.ROWS).boxed().toArray(Integer[]::new));
        } else {
            assertThat(stack).as(f + " parts").extracting(HostWeights::rows).containsExactly(qkv.rows());
            assertThat(stack.getFirst().globalScale())
                    .as("the stack's global scale")
                    .isEqualTo(qkv.whole().globalScale());
        }
        return stack;
    }

    /** The FP16 bits of {@code m} rows of K normal activations. */
    private static short[] activations(int m) {
        Random rnd = new Random(SEED + m);
        short[] x = new short[m * K];
        for (int i = 0; i < x.length; i++) {
            x[i] = Float.floatToFloat16((float) rnd.nextGaussian());
        }
        return x;
    }

    /** {@code stack}'s parts on the device, each by {@code upload}; those made are freed again if one fails. */
    private static StackedWeights upload(List<HostWeights> stack, Function<HostWeights, DeviceWeights> upload) {
        try (OwnedResources partial = new OwnedResources()) {
            List<DeviceWeights> parts = new ArrayList<>(stack.size());
            for (HostWeights h : stack) {
                parts.add(partial.add(upload.apply(h)));
            }
            StackedWeights s = new StackedWeights(parts);
            partial.release();
            return s;
        }
    }

    /** {@code h}'s bytes in the row-major layout, as {@link DeviceWeights#upload} copies them. */
    private static DeviceWeights rowMajor(HostWeights h) {
        HostBytes b = HostBytes.of(h);
        byte[] scales = Arrays.copyOf(b.scales(), Math.toIntExact(h.format().scaleBytes(h.rows(), h.cols())));
        return DeviceWeights.upload(h.format(), h.rows(), h.cols(), b.weights(), scales, h.globalScale());
    }

    /**
     * {@code y[m][w.rows()] = x · Wᵀ} with FP16 activations {@code x}, each part's product into its rows of y; every
     * output starts as FP16 NaN, so one a kernel leaves unwritten fails the bounds.
     */
    private static double[] outputs(StackedWeights w, short[] x, int m) {
        double[] y = new double[m * w.rows()];
        try (DeviceBuffer xd = DeviceBuffer.allocate(2L * x.length)) {
            xd.copyFrom(x);
            for (int p = 0; p < w.parts().size(); p++) {
                DeviceWeights part = w.parts().get(p);
                try (DeviceBuffer yd = DeviceBuffer.allocate(2L * m * part.rows())) {
                    yd.fill(0xFF);
                    gemv.gemv(part, xd, yd, m, Activation.F16, stream);
                    stream.synchronize();
                    double[] partY = StepByStep.fp16(yd.toShortArray());
                    for (int r = 0; r < m; r++) {
                        System.arraycopy(partY, r * part.rows(), y, r * w.rows() + w.firstRow(p), part.rows());
                    }
                }
            }
        }
        return y;
    }

    /** {@link Agreement#check} of each piece's outputs in {@code y} against its outputs in {@code ref}. */
    private static void agreeByPiece(String what, QkvPieces qkv, int m, double[] y, double[] ref) {
        for (int p = 0; p < QkvPieces.NAMES.size(); p++) {
            Agreement.check(
                    what + ", " + QkvPieces.NAMES.get(p) + " rows",
                    qkv.outputsOf(p, y, m),
                    qkv.outputsOf(p, ref, m),
                    RELATIVE,
                    WORST);
        }
    }
}
