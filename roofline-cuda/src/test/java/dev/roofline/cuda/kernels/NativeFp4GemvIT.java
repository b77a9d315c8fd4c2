package dev.roofline.cuda.kernels;

import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.UnsupportedOnDeviceException;
import dev.roofline.cuda.blas.ElementCodec;
import dev.roofline.cuda.kernels.NativeFp4Gemv.Mma;
import dev.roofline.quant.block.Nvfp4Quantizer;
import dev.roofline.quant.block.Nvfp4Tensor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The W4A4 NVFP4 path: the activation quantizer byte for byte against roofline-quant's ModelOpt quantizer, and the
 * GEMV against a double-precision product of the values both sides' bytes stand for. On every GPU the GEMV runs with
 * the mma emulated from the PTX ISA's tables (the kernel's loads, half exchanges and scale permutes); where the fatbin
 * has the instruction the hardware form runs too ({@code tcgen05.mma} on compute capability 10.0, {@code mma.sync} on
 * 12.x), and elsewhere, Hopper included, asking for it is the typed capability error.
 */
@RequiresGpu
class NativeFp4GemvIT {
    private static NativeFp4Gemv fp4;
    private static Stream stream;
    private static ComputeCapability cc;

    @BeforeAll
    static void open() {
        fp4 = NativeFp4Gemv.load(KernelLaunch.ORDERED);
        stream = Stream.create();
        cc = Cuda.device(0).computeCapability();
    }

    @AfterAll
    static void close() {
        stream.close();
        fp4.close();
    }

    /**
     * Activations rounded to FP16 (the kernel's input), with blocks that stress the rounding: all zero, one value,
     * FP16 subnormals, values on E2M1's ties, and magnitudes over 40 binades.
     */
    private static float[] activations(Random rnd, int count) {
        float[] x = new float[count];
        for (int b = 0; b < count / 16; b++) {
            int kind = b % 8;
            float mag = Math.scalb(1f, rnd.nextInt(40) - 25);
            for (int j = 0; j < 16; j++) {
                float v = (float) ((2 * rnd.nextDouble() - 1) * mag);
                if (kind == 0) {
                    v = 0f;
                } else if (kind == 1) {
                    v = j == 3 ? -mag : 0f;
                } else if (kind == 2) {
                    v = -Math.scalb((float) rnd.nextDouble(), -24);
                } else if (kind == 3) {
                    v = (rnd.nextInt(25) - 12) * 0.25f * mag;
                }
                x[b * 16 + j] = v;
            }
        }
        double[] rounded = ElementCodec.decode(Precision.FP16, ElementCodec.encode(Precision.FP16, x));
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) rounded[i];
        }
        return x;
    }

    @ParameterizedTest(name = "M={0}, K={1}")
    @CsvSource({"1, 128", "3, 4096", "8, 8960"})
    void quantizedActivationsAreTheModelOptQuantizersBytes(int m, int k) {
        long seed = System.nanoTime();
        float[] x = activations(new Random(seed), m * k);
        Nvfp4Tensor expected = Nvfp4Quantizer.modelOpt().quantize(x, m, k);
        try (DeviceBuffer xd = DeviceBuffer.allocate(2L * m * k);
                DeviceBuffer xq = DeviceBuffer.allocate((long) m * k / 2);
                DeviceBuffer xs = DeviceBuffer.allocate((long) m * k / 16)) {
            xd.copyFrom(ElementCodec.encode(Precision.FP16, x));
            fp4.quantizeActivations(xd, xq, xs, m, k, expected.globalScale(), stream);
            stream.synchronize();
            assertThat(xq.toByteArray()).as("E2M1 codes, seed " + seed).isEqualTo(expected.packed());
            assertThat(xs.toByteArray()).as("E4M3 scales, seed " + seed).isEqualTo(expected.blockScales());
        }
    }

    /** N not a multiple of 16 rows; K from one step to 70 steps; M at 1, inside and at the mma's 8 columns. */
    @ParameterizedTest(name = "M={0}, N={1}, K={2}")
    @CsvSource({"1, 37, 128", "1, 2100, 8960", "3, 200, 1664", "8, 512, 2048", "8, 16, 4096"})
    void emulatedMmaMatchesTheProductOfTheQuantizedValues(int m, int n, int k) {
        check(m, n, k, Mma.EMULATED);
    }

    /**
     * On 10.0 K is split over a cluster of 4 CTAs below 296 tiles of 128 rows (37 rows at K = 128: three of the four
     * CTAs have no k stage) and not at 38000 rows (297 tiles, the last one partly past N).
     */
    @ParameterizedTest(name = "M={0}, N={1}, K={2}")
    @CsvSource({"1, 37, 128", "1, 6200, 8960", "3, 200, 1664", "8, 4096, 4096", "8, 6200, 4096", "2, 38000, 1024"})
    void theInstructionMatchesTheProductOfTheQuantizedValues(int m, int n, int k) {
        assumeTrue(
                NativeFp4Gemv.hasInstruction(cc),
                "the block-scaled FP4 MMA needs compute capability 10.0 or 12.x; this GPU is " + cc);
        check(m, n, k, Mma.HARDWARE);
    }

    @Test
    void withoutTheInstructionTheHardwareFormIsTheTypedCapabilityError() {
        assumeTrue(!NativeFp4Gemv.hasInstruction(cc), "this GPU has the instruction");
        try (DeviceWeights w = weights(new Random(1), 16, 128).upload();
                DeviceBuffer xq = DeviceBuffer.allocate(64);
                DeviceBuffer xs = DeviceBuffer.allocate(8);
                DeviceBuffer y = DeviceBuffer.allocate(32)) {
            assertThatThrownBy(() -> fp4.gemv(w, xq, xs, 1f, y, 1, Mma.HARDWARE, cc, stream))
                    .isInstanceOf(UnsupportedOnDeviceException.class)
                    .hasMessageContaining("kind::mxf4nvf4")
                    .hasMessageContaining("needs compute capability 10.0 (sm_100a: tcgen05.mma;")
                    .hasMessageContaining("or 12.x (sm_120a, sm_121a: mma.sync)")
                    .hasMessageEndingWith("has " + cc);
        }
    }

    @Test
    void badShapesAndFormatsAreRefusedByName() {
        try (DeviceWeights w = weights(new Random(2), 16, 128).upload();
                DeviceWeights fp8 = QuantizedWeights.quantize(
                                WeightFormat.FP8_E4M3,
                                GemvKernelsIT.weightsWithOutliers(new Random(3), 16 * 128),
                                16,
                                128)
                        .upload();
                DeviceBuffer xq = DeviceBuffer.allocate(1024);
                DeviceBuffer xs = DeviceBuffer.allocate(128);
                DeviceBuffer xsShort = DeviceBuffer.allocate(32);
                DeviceBuffer y = DeviceBuffer.allocate(512)) {
            assertThatThrownBy(() -> fp4.gemv(fp8, xq, xs, 1f, y, 1, Mma.EMULATED, cc, stream))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("the native FP4 GEMV takes NVFP4 weights, got FP8_E4M3");
            assertThatThrownBy(() -> fp4.gemv(w, xq, xs, 1f, y, 9, Mma.EMULATED, cc, stream))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("M (activation rows) must be in 1..8, got 9");
            assertThatThrownBy(() -> fp4.gemv(w, xq, xs, Float.NaN, y, 1, Mma.EMULATED, cc, stream))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("the activations' global scale must be finite and positive, got NaN");
            assertThatThrownBy(() -> fp4.quantizeActivations(y, xq, xs, 1, 96, 1f, stream))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("K must be a positive multiple of 128 for the native FP4 GEMV, got 96");
            assertThatThrownBy(() -> fp4.gemv(w, xq, xsShort, 1f, y, 8, Mma.EMULATED, cc, stream))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("xs holds 32 bytes; the shape needs 64");
        }
    }

    private static QuantizedWeights weights(Random rnd, int n, int k) {
        return QuantizedWeights.quantize(WeightFormat.NVFP4, GemvKernelsIT.weightsWithOutliers(rnd, n * k), n, k);
    }

    private static void check(int m, int n, int k, Mma mma) {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        QuantizedWeights q = weights(rnd, n, k);
        // Gaussian activations, as GemvKernelsIT's: the quantizer's edge cases (above) span 40 binades, whose
        // products would overflow FP16 outputs
        float[] x = new float[m * k];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) rnd.nextGaussian();
        }
        double[] rounded = ElementCodec.decode(Precision.FP16, ElementCodec.encode(Precision.FP16, x));
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) rounded[i];
        }
        Nvfp4Tensor xq4 = Nvfp4Quantizer.modelOpt().quantize(x, m, k);
        float[] xValues = xq4.dequantize();
        double[] xv = new double[xValues.length];
        for (int i = 0; i < xv.length; i++) {
            xv[i] = xValues[i];
        }
        double[] ref = GemvKernelsIT.reference(q.values(), xv, m, n, k);
        try (DeviceWeights w = q.upload();
                DeviceBuffer xd = DeviceBuffer.allocate(2L * m * k);
                DeviceBuffer xq = DeviceBuffer.allocate((long) m * k / 2);
                DeviceBuffer xs = DeviceBuffer.allocate((long) m * k / 16);
                DeviceBuffer yd = DeviceBuffer.allocate(2L * m * n)) {
            xd.copyFrom(ElementCodec.encode(Precision.FP16, x));
            yd.fill(0xFF); // NaN in FP16: an element the kernel does not write fails
            fp4.quantizeActivations(xd, xq, xs, m, k, xq4.globalScale(), stream);
            fp4.gemv(w, xq, xs, xq4.globalScale(), yd, m, mma, cc, stream);
            stream.synchronize();
            double[] y = ElementCodec.decode(Precision.FP16, yd.toByteArray());
            String context = mma + " M=" + m + " N=" + n + " K=" + k + " seed=" + seed;
            assertThat(Arrays.stream(y).allMatch(Double::isFinite))
                    .as("every output written and finite, " + context)
                    .isTrue();
            // FP32 sums of exact products, one FP16 rounding of each output (2^-11 relative)
            assertThat(GemvKernelsIT.relativeError(y, ref))
                    .as("||y - ref|| / ||ref||, " + context)
                    .isLessThan(2e-3);
            assertThat(GemvKernelsIT.worstElementError(y, ref))
                    .as("max |y - ref| / max |ref|, " + context)
                    .isLessThan(8e-3);
        }
    }
}
