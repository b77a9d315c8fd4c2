package dev.roofline.cuda.kernels;

import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.blas.ElementCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream.Builder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every GEMV kernel against a CPU reference: weights with outliers quantized by roofline-quant, decoded back
 * ({@code dequantize()}) and multiplied in double with the same (rounded) activations. The kernels accumulate the same
 * products in FP32, so what remains is the output's rounding (FP16 2^-11, BF16 2^-8 relative) and FP32 summation
 * order; the bounds are on ||y - ref|| / ||ref|| and on the worst element relative to the largest output.
 */
@RequiresGpu
public class GemvKernelsIT {
    private static final int N = 70; // not a multiple of the rows a block computes (4, 8 or 16)
    private static final int K = 1024;
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
        Builder<Arguments> b = java.util.stream.Stream.builder();
        for (WeightFormat f : WeightFormat.values()) {
            for (Activation a : Activation.values()) {
                for (int m : new int[] {1, 3, 8, 9, 16, 32}) {
                    if (m > 16 && !GemvKernels.tensorCores(f, a, m)) {
                        continue; // above 16 rows the tensor cores only
                    }
                    b.add(Arguments.of(f, a, m));
                }
            }
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0} weights, {1} activations, M={2}")
    @MethodSource("cases")
    void matchesDequantizeThenMultiply(WeightFormat format, Activation activation, int m) {
        check(format, activation, m, N);
    }

    /**
     * The tensor-core kernels' K splits (GemvKernels.tensorCoreWarps: 16 warps below 6144 rows, 8 from there; one row of
     * FP8 at 4096-6144 rows and INT8 at 4096 on 16, GemvKernels.oneRowOnTensorCores) at K long
     * enough for whole trips of unrolled steps plus a checked tail (NVFP4 / MXFP4: K = 8608 = 67 steps of 128 and a
     * partial one; INT4: 97 whole steps; FP8 / INT8 above one row: 134 steps of 64 and a partial one; FP16 / BF16
     * above one row: 269 steps of 32 and a partial one).
     */
    @ParameterizedTest(name = "{0} weights, F16 activations, M={1}, N={2}, K={3}")
    @CsvSource({
        "NVFP4, 1, 2100, 8608",
        "NVFP4, 16, 2100, 8608",
        "NVFP4, 1, 6200, 8608",
        "NVFP4, 16, 6200, 8608",
        "MXFP4, 1, 2100, 8608",
        "MXFP4, 16, 2100, 8608",
        "MXFP4, 1, 8200, 8608",
        "MXFP4, 9, 8200, 8608",
        "INT4, 1, 2100, 12416",
        "INT4, 16, 2100, 12416",
        "INT4, 1, 6200, 12416",
        "INT4, 16, 6200, 12416",
        "FP8_E4M3, 16, 2100, 8608",
        "FP8_E4M3, 9, 6200, 8608",
        // one row of FP8 at 4096-6144 rows of K >= 4096, and of INT8 at 4096 rows, runs the 8-row kernel on 16 warps
        "FP8_E4M3, 1, 4096, 8608",
        "FP8_E4M3, 1, 6144, 4128",
        "INT8, 1, 4096, 8608",
        "INT8, 16, 2100, 8608",
        "INT8, 2, 6200, 8608",
        // fewer rows than a block holds, M between 2 and 8: whole trips with most rows and columns absent
        "NVFP4, 3, 1, 8608",
        "MXFP4, 2, 9, 8608",
        "INT4, 5, 7, 12416",
        "FP8_E4M3, 3, 1, 8608",
        "INT8, 8, 7, 8608",
        // 16-bit weights above one row: 32-k steps, so 269 of them and a partial one at K = 8616
        "FP16, 16, 2100, 8616",
        "FP16, 2, 6200, 8616",
        "BF16, 9, 2100, 8616",
        "BF16, 8, 6200, 8616",
        "FP16, 5, 3, 8616",
        "BF16, 3, 1, 8616",
        // 17..32 rows: four B fragments, x loaded per mma
        "NVFP4, 32, 2100, 8608",
        "NVFP4, 17, 6200, 8608",
        "MXFP4, 24, 8200, 8608",
        "INT4, 32, 2100, 12416",
        "INT4, 25, 6200, 12416",
        "FP8_E4M3, 32, 6200, 8608",
        "INT8, 19, 2100, 8608",
        "FP16, 32, 2100, 8616",
        "BF16, 27, 6200, 8616"
    })
    void tensorCoreKSplits(WeightFormat format, int m, int n, int k) {
        check(format, Activation.F16, m, n, k);
    }

    /**
     * The 4-bit formats with BF16 activations (E2M1 and INT4 decoded to BF16, the BF16 mma): both K splits (16 warps
     * below 6144 rows, 8 from there), one, two and four B fragments, whole trips and a checked tail (K = 8608: 67
     * steps of 128 and a partial one; INT4 97 whole steps), and K = 1056, whose last step is partly outside the row.
     */
    @ParameterizedTest(name = "{0} weights, BF16 activations, M={1}, N={2}, K={3}")
    @CsvSource({
        "NVFP4, 1, 2100, 8608",
        "NVFP4, 1, 6200, 8608",
        "NVFP4, 16, 2100, 8608",
        "NVFP4, 27, 6200, 8608",
        "MXFP4, 1, 2100, 8608",
        "MXFP4, 1, 8200, 8608",
        "MXFP4, 9, 8200, 8608",
        "MXFP4, 32, 2100, 8608",
        "INT4, 1, 2100, 12416",
        "INT4, 1, 6200, 12416",
        "INT4, 5, 7, 12416",
        "INT4, 25, 6200, 12416",
        "NVFP4, 1, 70, 1056",
        "MXFP4, 9, 70, 1056"
    })
    void fourBitWithBf16ActivationsOnTheTensorCores(WeightFormat format, int m, int n, int k) {
        check(format, Activation.BF16, m, n, k);
    }

    /**
     * An odd N: the CUDA-core kernels' second row of the last warp (2 rows per warp at M = 1) lies past N; K = 1056 also
     * leaves the last trip of 2 chunks per lane incomplete (66 or 132 chunks per row).
     */
    @ParameterizedTest(name = "{0} weights, {1} activations, M=1, N=69, K={2}")
    @CsvSource({
        "FP16, F16, 1024", "BF16, BF16, 1024", "FP8_E4M3, F16, 1024", "INT8, BF16, 1024",
        "FP16, F16, 1056", "BF16, BF16, 1056", "FP8_E4M3, F16, 1056", "INT8, F16, 1056"
    })
    void cudaCoreOddRows(WeightFormat format, Activation activation, int k) {
        check(format, activation, 1, 69, k);
    }

    /** K not a multiple of the tensor-core kernels' step (128 k, 64 for 8-bit weights): the last step is partly outside the row. */
    @ParameterizedTest(name = "{0} weights, F16 activations, M={1}, K=1056")
    @CsvSource({
        "NVFP4, 1",
        "NVFP4, 9",
        "MXFP4, 1",
        "MXFP4, 9",
        "FP8_E4M3, 2",
        "FP8_E4M3, 16",
        "INT8, 9",
        "NVFP4, 30",
        "FP8_E4M3, 32"
    })
    void tensorCorePartialStep(WeightFormat format, int m) {
        check(format, Activation.F16, m, N, 1056);
    }

    /**
     * BF16 weights on the tensor cores: with BF16 activations one BF16 mma, with FP16 activations two (x split into a
     * BF16 head and its exact rest), at K = 1064, a partial 32-k step. With FP16 activations the bound is 6e-4: the
     * outputs' FP16 rounding leaves about 2^-11 / √3 ≈ 2.8e-4 relative, while x rounded to BF16 (8 significant bits)
     * would add about 2^-9 / √3 ≈ 1.1e-3, so the bound holds only if the split keeps every bit of x.
     */
    @ParameterizedTest(name = "BF16 weights, {0} activations, M={1}, K=1064")
    @CsvSource({"F16, 2, 6e-4", "F16, 16, 6e-4", "F16, 32, 6e-4", "BF16, 4, 1e-2", "BF16, 13, 1e-2", "BF16, 29, 1e-2"})
    void bf16WeightsOnTheTensorCores(Activation activation, int m, double tolerance) {
        check(WeightFormat.BF16, activation, m, N, 1064, rnd -> weightsWithOutliers(rnd, N * 1064), tolerance);
    }

    private static void check(WeightFormat format, Activation activation, int m, int N) {
        check(format, activation, m, N, K);
    }

    /**
     * MXFP4 folds every block's scale relative to its row's largest: blocks 40 binades below it (every third block
     * here is not) fall under fp16's subnormal grid, which must cost nothing measurable and never overflow; with BF16
     * activations they stay exact.
     */
    @ParameterizedTest(name = "MXFP4 weights, {0} activations, M={1}, row scales over 40 binades")
    @CsvSource({"F16, 1", "F16, 16", "BF16, 1", "BF16, 16"})
    void mxfp4RowScalesSpanningManyBinades(Activation activation, int m) {
        int n = 200, k = 4096;
        check(WeightFormat.MXFP4, activation, m, n, k, rnd -> overFortyBinades(rnd, n * k));
    }

    /**
     * MXFP4 rows whose largest scale code is near the top of E8M0 (weights up to about 2^124: codes near 249) with
     * BF16 activations of about 2^-124, which BF16 holds: the output factor 2^(Emax - 120) alone would overflow FP32.
     * Row-major (70 rows) and tiled (80 rows, a whole number of tiles).
     */
    @ParameterizedTest(name = "MXFP4 weights, BF16 activations, M={0}, tiled {1}, scale codes near 249")
    @CsvSource({"1, false", "9, false", "1, true", "9, true"})
    void mxfp4WithBf16ActivationsAtTheTopOfTheScaleRange(int m, boolean tiled) {
        int n = tiled ? 80 : 70, k = 1024;
        check(
                WeightFormat.MXFP4,
                Activation.BF16,
                m,
                n,
                k,
                rnd -> {
                    float[] w = weightsWithOutliers(rnd, n * k);
                    for (int i = 0; i < w.length; i++) {
                        w[i] = Math.scalb(w[i], 124);
                    }
                    return w;
                },
                1e-2,
                tiled,
                -124);
    }

    private static void check(WeightFormat format, Activation activation, int m, int N, int K) {
        check(format, activation, m, N, K, rnd -> weightsWithOutliers(rnd, N * K));
    }

    /** {@code count} weights with outliers, every block of 32 but each third scaled down by 2^40. */
    private static float[] overFortyBinades(Random rnd, int count) {
        float[] w = weightsWithOutliers(rnd, count);
        for (int i = 0; i < w.length; i++) {
            if ((i / 32) % 3 != 0) {
                w[i] = Math.scalb(w[i], -40);
            }
        }
        return w;
    }

    private static void check(
            WeightFormat format,
            Activation activation,
            int m,
            int N,
            int K,
            java.util.function.Function<Random, float[]> weights) {
        check(format, activation, m, N, K, weights, activation == Activation.F16 ? 2e-3 : 1e-2);
    }

    private static void check(
            WeightFormat format,
            Activation activation,
            int m,
            int N,
            int K,
            java.util.function.Function<Random, float[]> weights,
            double tolerance) {
        check(format, activation, m, N, K, weights, tolerance, false);
    }

    /**
     * The 4-bit formats on weights tiled at upload ({@link DeviceWeights#uploadForGemv}, gemv_tiled.cu) at every rows
     * bound (1, 8, 16, 32) and between: K = 8576 is 67 groups of 128 over 8 warps (8 whole trips and 3 groups more, so
     * the unrolled loop's tail runs), N = 2096 is 131 tiles (the two-tile blocks' last one half past N); 16 × 128 is
     * one tile and one group (7 of 8 warps without a group). At one row INT4 runs its kernel capped at 3 blocks an SM
     * up to 2 tiles an SM (at 2096 rows on GPUs of 66 SMs or more, at 16 rows on any), its rolling-window kernel up to
     * 4 (at 7168 rows, 448 tiles, on GPUs of 112 to 223 SMs), NVFP4 its kernel capped at 4 blocks an SM up to 4 tiles
     * an SM (the plain one at 8464 rows on GPUs of up to 132 SMs) and MXFP4 its rolling-window kernel up to 2
     * ({@link GemvKernels#tiledLaunch}; their warps here take 9 or 8 steps, windows of 2 and a part; MXFP4's at 16
     * rows on any GPU and at 2096 × 4224, below) and its diagonal kernel up to 4 (at 4240 rows, 265 tiles, on
     * GPUs of 67 to 132 SMs, and 8448, 528 tiles, on 132 to 263: two trips of 4 steps and one step or none) and the
     * plain ones at 8464 rows (529 tiles, above the 528 of 132 SMs; GPUs with more SMs run INT4's rolling one and
     * MXFP4's diagonal one there too). Above one wave of its rolling-window kernel INT4
     * runs the kernel whose last wave is the fullest ({@link GemvKernels#INT4_M1_WAVES}): on 132 SMs its 2-warp window
     * at 28672 rows (1792 tiles; K = 1152 is 9 groups, 5 and 4 steps for the two warps) and its capped kernel at 11264
     * (704 tiles). From 2 to 8 rows INT4
     * and MXFP4 run their rolling-window kernels up to 2 tiles an SM where every warp takes at least 8 steps: at K =
     * 8576 (8 or 9 steps) and 14464 (14 or 15) on 1040 rows (65 tiles) on GPUs of 33 SMs or more, at 2096 rows (131
     * tiles) on GPUs of 66 or more, and the plain kernels at 8464 rows at 4 rows. From 5 to 8 rows MXFP4 at 8464 rows
     * runs two tiles a block ({@link GemvKernels#tiledLaunch}: on GPUs whose DRAM gives at least 15 bytes an SM and
     * cycle, as an H200 but not an H100, of up to 176 SMs), the last block's second tile past N; INT4 and NVFP4 run
     * their plain 8-row kernels there. At one row (on GPUs whose DRAM gives at least 15 bytes an SM and cycle, as an
     * H200) and from 9 to 16 rows NVFP4 and MXFP4 split each block's K over a cluster of 2 up to 2 tiles an SM on rows
     * of at least 8192 ({@link GemvKernels#splitsK}): at 2096 × 8576 (131
     * tiles; at 16 rows the last block's second tile past N) on GPUs of 66 SMs or more, and at 4224 × 14464 (264
     * tiles; 113 groups over the cluster's 16 warps) on GPUs of 132 or more; at 2096 × 4224 (K under 8192) one row
     * runs NVFP4's capped kernel and MXFP4's window unsplit. From 9 to 16 rows NVFP4 runs one tile a block up to 3
     * tiles an SM on rows shorter than 8192 ({@link GemvKernels#NVFP4_M16_FEW_BLOCKS}): at 16 × 128, 6336 × 4224 (396
     * tiles; 33 groups, one warp with 5 steps: two trips of 2 and one step) on GPUs of 132 SMs or more and 4240 × 8064
     * (265 tiles; each warp 7 or 8 steps) on GPUs of 89 or more; INT4's two-tile kernel runs 6336 × 4224 and 6352 ×
     * 1152 (397 tiles, the last block's second tile past N).
     */
    @ParameterizedTest(name = "{0} weights tiled, F16 activations, M={1}, N={2}, K={3}")
    @CsvSource({
        "INT4, 1, 2096, 8576",
        "INT4, 3, 2096, 8576",
        "INT4, 8, 2096, 8576",
        "INT4, 9, 2096, 8576",
        "INT4, 16, 2096, 8576",
        "INT4, 17, 2096, 8576",
        "INT4, 32, 2096, 8576",
        "INT4, 1, 16, 128",
        "INT4, 1, 8464, 8576",
        "INT4, 1, 28672, 1152",
        "INT4, 1, 11264, 1152",
        "INT4, 1, 7168, 8576",
        "INT4, 32, 16, 128",
        "NVFP4, 1, 2096, 8576",
        "NVFP4, 2, 2096, 8576",
        "NVFP4, 8, 2096, 8576",
        "NVFP4, 12, 2096, 8576",
        "NVFP4, 16, 2096, 8576",
        "NVFP4, 25, 2096, 8576",
        "NVFP4, 32, 2096, 8576",
        "NVFP4, 1, 16, 128",
        "NVFP4, 1, 8464, 8576",
        "NVFP4, 9, 16, 128",
        "MXFP4, 1, 2096, 8576",
        "MXFP4, 5, 2096, 8576",
        "MXFP4, 8, 2096, 8576",
        "MXFP4, 16, 2096, 8576",
        "MXFP4, 20, 2096, 8576",
        "MXFP4, 32, 2096, 8576",
        "MXFP4, 1, 16, 128",
        "MXFP4, 1, 8464, 8576",
        "MXFP4, 1, 4240, 8576",
        "MXFP4, 1, 8448, 8576",
        "MXFP4, 16, 16, 128",
        "NVFP4, 16, 4224, 14464",
        "MXFP4, 12, 4224, 14464",
        "NVFP4, 1, 4224, 14464",
        "MXFP4, 1, 4224, 14464",
        "NVFP4, 1, 2096, 4224",
        "MXFP4, 1, 2096, 4224",
        "INT4, 2, 1040, 14464",
        "INT4, 8, 1040, 8576",
        "INT4, 4, 8464, 8576",
        "NVFP4, 8, 1040, 14464",
        "MXFP4, 3, 1040, 14464",
        "MXFP4, 8, 1040, 8576",
        "MXFP4, 4, 8464, 8576",
        "INT4, 8, 8464, 8576",
        "NVFP4, 5, 8464, 8576",
        "MXFP4, 8, 8464, 8576",
        "INT4, 16, 6336, 4224",
        "INT4, 12, 6352, 1152",
        "NVFP4, 16, 6336, 4224",
        "NVFP4, 13, 4240, 8064"
    })
    void tiledWeights(WeightFormat format, int m, int n, int k) {
        check(format, Activation.F16, m, n, k, rnd -> weightsWithOutliers(rnd, n * k), 2e-3, true);
    }

    /**
     * The tiled kernels with BF16 activations (the E2M1 codes and INT4 integers decoded to BF16 from the same layout,
     * the BF16 mma) at every rows bound and between, on the shapes of {@link #tiledWeights}.
     */
    @ParameterizedTest(name = "{0} weights tiled, BF16 activations, M={1}, N={2}, K={3}")
    @CsvSource({
        "INT4, 1, 2096, 8576",
        "INT4, 5, 2096, 8576",
        "INT4, 9, 2096, 8576",
        "INT4, 32, 16, 128",
        "NVFP4, 1, 2096, 8576",
        "NVFP4, 8, 2096, 8576",
        "NVFP4, 16, 2096, 8576",
        "NVFP4, 25, 2096, 8576",
        "NVFP4, 1, 16, 128",
        "MXFP4, 1, 2096, 8576",
        "MXFP4, 5, 2096, 8576",
        "MXFP4, 32, 2096, 8576"
    })
    void tiledWeightsWithBf16Activations(WeightFormat format, int m, int n, int k) {
        check(format, Activation.BF16, m, n, k, rnd -> weightsWithOutliers(rnd, n * k), 1e-2, true);
    }

    /** MXFP4's row-relative scales over 40 binades, tiled: the row maxima follow the tiled scales unchanged. */
    @ParameterizedTest(name = "MXFP4 weights tiled, {0} activations, M={1}, row scales over 40 binades")
    @CsvSource({"F16, 1", "F16, 16", "F16, 32", "BF16, 1", "BF16, 16"})
    void tiledMxfp4RowScalesSpanningManyBinades(Activation activation, int m) {
        int n = 208;
        int k = 4096;
        check(
                WeightFormat.MXFP4,
                activation,
                m,
                n,
                k,
                rnd -> overFortyBinades(rnd, n * k),
                activation == Activation.F16 ? 2e-3 : 1e-2,
                true);
    }

    @Test
    void tiledWeightsRunWithoutAnEpilogueAndOnlyOnTheGemvKernels() {
        Random rnd = new Random(3);
        QuantizedWeights q = QuantizedWeights.quantize(WeightFormat.NVFP4, weightsWithOutliers(rnd, 32 * 256), 32, 256);
        try (DeviceWeights w = q.uploadForGemv();
                DeviceBuffer xd = DeviceBuffer.allocate(2L * 256);
                DeviceBuffer yd = DeviceBuffer.allocate(2L * 32)) {
            assertThat(w.tiled()).isTrue();
            try (DeviceBuffer sd = DeviceBuffer.allocate(4L * GemvKernels.Epilogue.SUM_SPREAD)) {
                assertThatThrownBy(() -> gemv.gemv(
                                w,
                                xd,
                                yd,
                                1,
                                Activation.F16,
                                GemvKernels.Epilogue.normScale(sd.pointer(), 256, 1e-5f),
                                stream))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("NVFP4 weights in the tiled layout run with no epilogue, got one: a residual add,"
                                + " norm scale or sums to clear runs on FP16 and FP8 weights with FP16 activations"
                                + " only");
            }
            try (NativeFp4Gemv fp4 = NativeFp4Gemv.load(KernelLaunch.ORDERED)) {
                assertThatThrownBy(() -> fp4.gemv(
                                w,
                                xd,
                                xd,
                                1f,
                                yd,
                                1,
                                NativeFp4Gemv.Mma.EMULATED,
                                dev.roofline.cuda.Cuda.device(0).computeCapability(),
                                stream))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith(
                                "the native FP4 GEMV reads row-major weights; these NVFP4 32 x 256 are" + " tiled");
            }
            assertThatThrownBy(() -> MoeKernels.Grouped.of(w, 2, 1, 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(
                            "the grouped expert GEMV reads row-major weights; these NVFP4 32 x 256 are" + " tiled");
        }
        // a shape the layout does not take stays row-major
        QuantizedWeights odd =
                QuantizedWeights.quantize(WeightFormat.INT4, weightsWithOutliers(rnd, 70 * 1024), 70, 1024);
        try (DeviceWeights w = odd.uploadForGemv()) {
            assertThat(w.tiled()).isFalse();
        }
    }

    private static void check(
            WeightFormat format,
            Activation activation,
            int m,
            int N,
            int K,
            java.util.function.Function<Random, float[]> weights,
            double tolerance,
            boolean tiled) {
        check(format, activation, m, N, K, weights, tolerance, tiled, 0);
    }

    /** The check with activations scaled by 2^{@code xExponent}. */
    private static void check(
            WeightFormat format,
            Activation activation,
            int m,
            int N,
            int K,
            java.util.function.Function<Random, float[]> weights,
            double tolerance,
            boolean tiled,
            int xExponent) {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        QuantizedWeights q = QuantizedWeights.quantize(format, weights.apply(rnd), N, K);
        float[] xValues = new float[m * K];
        for (int i = 0; i < xValues.length; i++) {
            xValues[i] = Math.scalb((float) rnd.nextGaussian(), xExponent);
        }
        byte[] xBytes = ElementCodec.encode(activation.precision(), xValues);
        double[] x = ElementCodec.decode(activation.precision(), xBytes);
        double[] ref = reference(q.values(), x, m, N, K);

        try (DeviceWeights w = tiled ? q.uploadForGemv() : q.upload();
                DeviceBuffer xd = DeviceBuffer.allocate(xBytes.length);
                DeviceBuffer yd = DeviceBuffer.allocate(2L * m * N)) {
            assertThat(w.tiled()).as("tiled").isEqualTo(tiled);
            xd.copyFrom(xBytes);
            yd.fill(0xFF); // NaN in FP16 and BF16: an element the kernel does not write fails
            gemv.gemv(w, xd, yd, m, activation, stream);
            stream.synchronize();
            double[] y = ElementCodec.decode(activation.precision(), yd.toByteArray());

            String context = format + (tiled ? " tiled" : "") + "/" + activation + " M=" + m + " N=" + N + " K=" + K
                    + " seed=" + seed;
            assertThat(Arrays.stream(y).allMatch(Double::isFinite))
                    .as("every output written and finite, " + context)
                    .isTrue();
            assertThat(relativeError(y, ref))
                    .as("||y - ref|| / ||ref||, " + context)
                    .isLessThan(tolerance);
            assertThat(worstElementError(y, ref))
                    .as("max |y - ref| / max |ref|, " + context)
                    .isLessThan(4 * tolerance);
        }
    }

    /**
     * FP16 on the CUDA cores at 1, 3 and 16 rows; FP8 on its CUDA-core one-row kernel, its 8-row tensor-core kernel
     * on 16 warps (3 and 8 rows of 70) and on 8 (3 rows of 6144, {@code GemvKernels.tensorCoreWarps}), and at one row on
     * the tensor cores (4096 × 4096, {@code GemvKernels.oneRowOnTensorCores}).
     */
    static java.util.stream.Stream<Arguments> epilogueCases() {
        return java.util.stream.Stream.of(
                Arguments.of(WeightFormat.FP16, 1, N, K),
                Arguments.of(WeightFormat.FP16, 3, N, K),
                Arguments.of(WeightFormat.FP16, 16, N, K),
                Arguments.of(WeightFormat.FP8_E4M3, 1, N, K),
                Arguments.of(WeightFormat.FP8_E4M3, 3, N, K),
                Arguments.of(WeightFormat.FP8_E4M3, 8, N, K),
                Arguments.of(WeightFormat.FP8_E4M3, 3, 6144, 256),
                Arguments.of(WeightFormat.FP8_E4M3, 1, 4096, 4096));
    }

    @Test
    void epilogueRunsOnFp16AndFp8WeightsOnly() {
        Random rnd = new Random(1);
        for (WeightFormat format : new WeightFormat[] {WeightFormat.INT8, WeightFormat.FP8_E4M3}) {
            int m = format == WeightFormat.INT8 ? 1 : 9;
            QuantizedWeights q = QuantizedWeights.quantize(format, weightsWithOutliers(rnd, N * K), N, K);
            try (DeviceWeights w = q.upload();
                    DeviceBuffer xd = DeviceBuffer.allocate(2L * m * K);
                    DeviceBuffer yd = DeviceBuffer.allocate(2L * m * N);
                    DeviceBuffer sd = DeviceBuffer.allocate(4L * m * GemvKernels.Epilogue.SUM_SPREAD)) {
                assertThatThrownBy(() -> gemv.gemv(
                                w,
                                xd,
                                yd,
                                m,
                                Activation.F16,
                                GemvKernels.Epilogue.normScale(sd.pointer(), K, 1e-5f),
                                stream))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("a residual add, norm scale or sums to clear runs on FP16 weights with FP16"
                                + " activations up to 16 rows and FP8 weights with FP16 activations up to 8 rows only,"
                                + " got " + format + " weights with F16 activations at " + m + " rows");
            }
        }
    }

    /**
     * The residual add before a norm ({@link GemvKernels.Epilogue#addNorm}): against the product in double, the
     * residual becomes r = residual + y rounded to FP16, the output r · g rounded, and the row sums Σ r² are added to
     * what the sums held; the other sums are zeroed.
     */
    @ParameterizedTest(name = "{0} weights, F16 activations, M={1}, {2}×{3}: residual add, norm input and sums")
    @MethodSource("epilogueCases")
    void epilogueAddsTheResidualAndSumsItsSquares(WeightFormat format, int m, int n, int k) {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        String context = format + " M=" + m + " " + n + "x" + k + " seed=" + seed;
        QuantizedWeights q = QuantizedWeights.quantize(format, weightsWithOutliers(rnd, n * k), n, k);
        short[] x = Halves.gaussian(new java.util.SplittableRandom(rnd.nextLong()), m * k, 1);
        short[] residual = Halves.gaussian(new java.util.SplittableRandom(rnd.nextLong()), m * n, 4);
        short[] g = Halves.gaussian(new java.util.SplittableRandom(rnd.nextLong()), n, 1);
        double[] y = reference(q.values(), Halves.decode(x), m, n, k);
        double[] r = new double[m * n];
        double[] normIn = new double[m * n];
        double[] sums = new double[m];
        for (int i = 0; i < m; i++) {
            sums[i] = 0.5 + i; // the sums hold something already: the kernel adds to it
        }
        int spread = GemvKernels.Epilogue.SUM_SPREAD;
        float[] sumsBefore = new float[2 * m * spread];
        for (int i = 0; i < m; i++) {
            sumsBefore[i * spread + i % spread] = (float) sums[i];
        }
        Arrays.fill(sumsBefore, m * spread, 2 * m * spread, 7f);
        for (int i = 0; i < m * n; i++) {
            r[i] = Float.float16ToFloat(Float.floatToFloat16(
                    Float.float16ToFloat(residual[i]) + Float.float16ToFloat(Float.floatToFloat16((float) y[i]))));
            normIn[i] = r[i] * Float.float16ToFloat(g[i % n]);
            sums[i / n] += r[i] * r[i];
        }
        try (DeviceWeights w = q.upload();
                DeviceBuffer xd = DeviceBuffer.allocate(2L * m * k);
                DeviceBuffer yd = DeviceBuffer.allocate(2L * m * n);
                DeviceBuffer rd = DeviceBuffer.allocate(2L * m * n);
                DeviceBuffer gd = DeviceBuffer.allocate(2L * n);
                DeviceBuffer sd = DeviceBuffer.allocate(8L * m * spread)) {
            xd.copyFrom(x);
            rd.copyFrom(residual);
            gd.copyFrom(g);
            sd.copyFrom(sumsBefore);
            yd.fill(0xFF);
            gemv.gemv(
                    w,
                    xd,
                    yd,
                    m,
                    Activation.F16,
                    GemvKernels.Epilogue.addNorm(
                            rd,
                            gd,
                            sd.slice(0, 4L * m * spread).pointer(),
                            sd.slice(4L * m * spread, 4L * m * spread).pointer()),
                    stream);
            stream.synchronize();
            float[] sumsAfter = sd.toFloatArray();
            double[] gotSums = new double[m];
            for (int i = 0; i < m * spread; i++) {
                gotSums[i / spread] += sumsAfter[i];
                assertThat(sumsAfter[m * spread + i])
                        .as("the other sums zeroed, " + context)
                        .isZero();
            }
            assertThat(relativeError(Halves.decode(rd.toShortArray()), r))
                    .as("residual, " + context)
                    .isLessThan(2e-3);
            assertThat(relativeError(Halves.decode(yd.toShortArray()), normIn))
                    .as("r * g, " + context)
                    .isLessThan(2e-3);
            assertThat(relativeError(gotSums, sums))
                    .as("sums of r^2, " + context)
                    .isLessThan(2e-3);
        }
    }

    /** The norm's scale on a product's outputs ({@link GemvKernels.Epilogue#normScale}): y / sqrt(sums / K + eps). */
    @ParameterizedTest(name = "{0} weights, F16 activations, M={1}, {2}×{3}: outputs over the row's rms")
    @MethodSource("epilogueCases")
    void epilogueScalesByTheRowsRms(WeightFormat format, int m, int n, int k) {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        String context = format + " M=" + m + " " + n + "x" + k + " seed=" + seed;
        QuantizedWeights q = QuantizedWeights.quantize(format, weightsWithOutliers(rnd, n * k), n, k);
        short[] x = Halves.gaussian(new java.util.SplittableRandom(rnd.nextLong()), m * k, 1);
        float eps = 1e-5f;
        int spread = GemvKernels.Epilogue.SUM_SPREAD;
        float[] sums = new float[m * spread];
        double[] ref = reference(q.values(), Halves.decode(x), m, n, k);
        for (int i = 0; i < m; i++) {
            double total = k * Math.pow(4, i - 1); // rms 0.5, 1, 2, ...
            for (int j = 0; j < spread; j++) {
                sums[i * spread + j] = (float) (total * (j + 1) / (spread * (spread + 1) / 2.0)); // parts add up
            }
            for (int c = 0; c < n; c++) {
                ref[i * n + c] /= Math.sqrt(total / k + eps);
            }
        }
        try (DeviceWeights w = q.upload();
                DeviceBuffer xd = DeviceBuffer.allocate(2L * m * k);
                DeviceBuffer yd = DeviceBuffer.allocate(2L * m * n);
                DeviceBuffer sd = DeviceBuffer.allocate(4L * m * spread)) {
            xd.copyFrom(x);
            sd.copyFrom(sums);
            yd.fill(0xFF);
            gemv.gemv(w, xd, yd, m, Activation.F16, GemvKernels.Epilogue.normScale(sd.pointer(), k, eps), stream);
            stream.synchronize();
            double[] y = Halves.decode(yd.toShortArray());
            assertThat(relativeError(y, ref))
                    .as("||y - ref|| / ||ref||, " + context)
                    .isLessThan(2e-3);
            assertThat(worstElementError(y, ref))
                    .as("max |y - ref| / max |ref|, " + context)
                    .isLessThan(8e-3);
        }
    }

    @Test
    void rejectsBatchOver32AndAbove16OffTheTensorCores() {
        try (DeviceBuffer b = DeviceBuffer.allocate(1 << 20)) {
            assertThatThrownBy(
                            () -> gemv.gemv(WeightFormat.FP16, b, null, 1f, b, b, 33, 64, 64, Activation.F16, stream))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("M (activation rows) must be 1..32");
            // FP8 weights with BF16 activations run on the CUDA cores, up to 16 rows
            assertThatThrownBy(
                            () -> gemv.gemv(WeightFormat.FP8_E4M3, b, b, 1f, b, b, 17, 64, 64, Activation.BF16, stream))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("M (activation rows) 17 above 16 runs on the tensor cores only, which take FP8_E4M3"
                            + " weights with F16 activations and no epilogue, got BF16 activations");
        }
    }

    @Test
    void closingTwiceClosesOnce() {
        GemvKernels second = GemvKernels.load();
        second.close();
        second.close();
        // the first instance, loaded into the same context, still computes correct products
        check(WeightFormat.NVFP4, Activation.F16, 1, N);
    }

    /** Gaussian weights with one in 64 scaled by 10-50x: the outliers that block scales exist for. */
    public static float[] weightsWithOutliers(Random rnd, int count) {
        float[] w = new float[count];
        for (int i = 0; i < count; i++) {
            w[i] = (float) (0.02 * rnd.nextGaussian() * (rnd.nextInt(64) == 0 ? 10 + 40 * rnd.nextDouble() : 1));
        }
        return w;
    }

    public static double[] reference(float[] w, double[] x, int m, int N, int K) {
        double[] y = new double[m * N];
        for (int r = 0; r < m; r++) {
            for (int n = 0; n < N; n++) {
                double s = 0;
                for (int k = 0; k < K; k++) {
                    s += (double) w[n * K + k] * x[r * K + k];
                }
                y[r * N + n] = s;
            }
        }
        return y;
    }

    static double relativeError(double[] y, double[] ref) {
        double num = 0, den = 0;
        for (int i = 0; i < y.length; i++) {
            num += (y[i] - ref[i]) * (y[i] - ref[i]);
            den += ref[i] * ref[i];
        }
        return Math.sqrt(num / den);
    }

    static double worstElementError(double[] y, double[] ref) {
        double worst = 0, scale = 0;
        for (int i = 0; i < y.length; i++) {
            worst = Math.max(worst, Math.abs(y[i] - ref[i]));
            scale = Math.max(scale, Math.abs(ref[i]));
        }
        return worst / scale;
    }
}
