package dev.roofline.cuda.blas;

import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.UnsupportedOnDeviceException;
import dev.roofline.cuda.internal.MatmulRecipe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each precision against a CPU double-precision product of the same (decoded) inputs, on fresh random data. */
@RequiresGpu
class MatmulIT {
    private static final int M = 64;
    private static final int N = 192;
    private static final int K = 256;
    private static CublasLt lt;
    private static Stream stream;
    private static Device device;

    @BeforeAll
    static void open() {
        device = Cuda.device(0);
        lt = CublasLt.create();
        stream = Stream.create();
    }

    @AfterAll
    static void close() {
        stream.close();
        lt.close();
    }

    /**
     * Tolerances on ||out - ref|| / ||ref||: inputs are exact in the reference, so what remains is accumulation order
     * and the output's rounding (FP16 2^-11, BF16 2^-8 relative), TF32's 10-bit inputs (about 5e-4) and FP8's reduced
     * accumulation on Hopper.
     */
    @ParameterizedTest(name = "{0} x {1} -> {2}")
    @CsvSource({
        "FP32, FP32, FP32, 1e-5",
        "TF32, TF32, FP32, 5e-3",
        "FP16, FP16, FP16, 2e-3",
        "FP16, FP16, FP32, 1e-5",
        "BF16, BF16, BF16, 1e-2",
        "FP8_E4M3, FP8_E4M3, FP16, 2e-3",
        "FP8_E4M3, FP8_E4M3, BF16, 1e-2",
        "FP8_E4M3, FP8_E4M3, FP32, 1e-3",
        "FP8_E4M3, FP8_E5M2, FP16, 2e-3",
        "INT8, INT8, FP32, 0"
    })
    void matchesCpuReference(Precision weights, Precision activations, Precision output, double tolerance) {
        Gemm g = Gemm.of(M, N, K)
                .withWeights(weights)
                .withActivations(activations)
                .withOutput(output);
        long seed = System.nanoTime();
        float[] wv = ElementCodec.random(weights, N * K, seed, 4f);
        float[] xv = ElementCodec.random(activations, M * K, seed + 1, 4f);
        byte[] wb = ElementCodec.encode(weights, wv);
        byte[] xb = ElementCodec.encode(activations, xv);
        double[] w = ElementCodec.decode(weights, wb);
        double[] x = ElementCodec.decode(activations, xb);
        boolean fp8 = MatmulRecipe.isFp8(weights);
        float sw = fp8 ? 0.5f : 1f;
        float sx = fp8 ? 4f : 1f;
        try (Matmul mm = Matmul.plan(lt, g, device, MatmulOptions.defaults());
                DeviceBuffer dw = DeviceBuffer.allocate(wb.length);
                DeviceBuffer dx = DeviceBuffer.allocate(xb.length);
                DeviceBuffer dy = DeviceBuffer.allocate(mm.requiredBytes().output());
                DeviceBuffer scaleW = DeviceBuffer.allocate(4);
                DeviceBuffer scaleX = DeviceBuffer.allocate(4)) {
            dw.copyFrom(wb);
            dx.copyFrom(xb);
            dy.fill(0xFF); // poison: NaN in every float format, -1 in INT32
            scaleW.copyFrom(new float[] {sw});
            scaleX.copyFrom(new float[] {sx});
            mm.run(Operands.of(dw, dx, dy).withScales(scaleW, scaleX, null), stream);
            stream.synchronize();
            byte[] yb = dy.toByteArray();
            double[] y = weights == Precision.INT8 ? ElementCodec.decodeInt32(yb) : ElementCodec.decode(output, yb);
            double num = 0;
            double den = 0;
            for (int m = 0; m < M; m++) {
                for (int n = 0; n < N; n++) {
                    double ref = 0;
                    for (int k = 0; k < K; k++) {
                        ref += x[m * K + k] * w[n * K + k];
                    }
                    ref *= (double) sw * sx;
                    double got = y[m * N + n];
                    assertThat(got).as("C[%d][%d]", m, n).isNotNaN();
                    num += (got - ref) * (got - ref);
                    den += ref * ref;
                }
            }
            double rel = Math.sqrt(num / den);
            System.out.printf("%s: relative error %.3e (tolerance %.0e)%n", mm.label(), rel, tolerance);
            assertThat(den).isPositive();
            assertThat(rel).isLessThanOrEqualTo(tolerance);
        }
    }

    /**
     * A block-scaled product against the CPU: random elements, a different scale for every block (so a misplaced tile
     * shows) and a tensor scale other than 1 (so alpha is exercised). Needs compute capability 10.0; skipped below it,
     * where {@link #blockScaledFormatsNameTheCapabilityTheyNeed} runs instead.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"NVFP4, 2e-3", "MXFP8_E4M3, 2e-3"})
    void blockScaledMatchesCpuReference(Precision p, double tolerance) {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                device.computeCapability().atLeast(10, 0),
                "block-scaled products need compute capability 10.0; this GPU is " + device.computeCapability());
        int block = p.blockScaling().orElseThrow().blockSize();
        int blocks = K / block;
        Gemm g = Gemm.of(M, N, K).in(p).withOutput(Precision.FP32);
        long seed = System.nanoTime();
        byte[] wb = ElementCodec.encode(p, ElementCodec.random(p, N * K, seed, 4f));
        byte[] xb = ElementCodec.encode(p, ElementCodec.random(p, M * K, seed + 1, 4f));
        double[] w = ElementCodec.decode(p, wb);
        double[] x = ElementCodec.decode(p, xb);
        // scales 2^-1, 2^0, 2^1 cycling per block: exact in both E4M3 and E8M0
        java.util.function.IntFunction<Double> scaleOf = i -> Math.scalb(1.0, i % 3 - 1);
        boolean nvfp4 = p == Precision.NVFP4;
        byte[] ws = new byte[N * blocks];
        byte[] xs = new byte[M * blocks];
        for (int i = 0; i < ws.length; i++) {
            ws[i] = scaleCode(nvfp4, scaleOf.apply(i));
        }
        for (int i = 0; i < xs.length; i++) {
            xs[i] = scaleCode(nvfp4, scaleOf.apply(i + 1));
        }
        byte[] wTiled = dev.roofline.core.format.ScaleTiles.of(N, blocks).tile(ws);
        byte[] xTiled = dev.roofline.core.format.ScaleTiles.of(M, blocks).tile(xs);
        float tensorScales = 0.75f;
        try (Matmul mm = Matmul.plan(lt, g, device, MatmulOptions.defaults());
                DeviceBuffer dw = DeviceBuffer.allocate(wb.length);
                DeviceBuffer dx = DeviceBuffer.allocate(xb.length);
                DeviceBuffer dy = DeviceBuffer.allocate(mm.requiredBytes().output());
                DeviceBuffer dws = DeviceBuffer.allocate(wTiled.length);
                DeviceBuffer dxs = DeviceBuffer.allocate(xTiled.length)) {
            dw.copyFrom(wb);
            dx.copyFrom(xb);
            dws.copyFrom(wTiled);
            dxs.copyFrom(xTiled);
            dy.fill(0xFF);
            mm.run(Operands.of(dw, dx, dy).withBlockScales(dws, dxs, tensorScales), stream);
            stream.synchronize();
            double[] y = ElementCodec.decode(Precision.FP32, dy.toByteArray());
            double num = 0;
            double den = 0;
            for (int m = 0; m < M; m++) {
                for (int n = 0; n < N; n++) {
                    double ref = 0;
                    for (int k = 0; k < K; k++) {
                        ref += x[m * K + k]
                                * scaleOf.apply(m * blocks + k / block + 1)
                                * w[n * K + k]
                                * scaleOf.apply(n * blocks + k / block);
                    }
                    ref *= tensorScales;
                    double got = y[m * N + n];
                    assertThat(got).as("C[%d][%d]", m, n).isNotNaN();
                    num += (got - ref) * (got - ref);
                    den += ref * ref;
                }
            }
            double rel = Math.sqrt(num / den);
            System.out.printf("%s: relative error %.3e (tolerance %.0e)%n", mm.label(), rel, tolerance);
            assertThat(den).isPositive();
            assertThat(rel).isLessThanOrEqualTo(tolerance);
        }
    }

    private static byte scaleCode(boolean e4m3, double scale) {
        return (byte)
                (e4m3
                        ? dev.roofline.core.format.E4M3Scale.encode((float) scale)
                        : dev.roofline.core.format.E8M0.encodeExponent(Math.getExponent(scale)));
    }

    @Test
    void blockScaledFormatsNameTheCapabilityTheyNeed() {
        if (device.computeCapability().atLeast(10, 0)) {
            return;
        }
        assertThatThrownBy(() ->
                        Matmul.plan(lt, Gemm.of(128, 128, 128).in(Precision.NVFP4), device, MatmulOptions.defaults()))
                .isInstanceOf(UnsupportedOnDeviceException.class)
                .hasMessageContaining(">= 10.0")
                .hasMessageContaining(device.computeCapability().toString());
    }

    @Test
    void fp8WithoutScalesIsRefused() {
        Gemm g = Gemm.of(16, 16, 16).in(Precision.FP8_E4M3);
        try (Matmul mm = Matmul.plan(lt, g, device, MatmulOptions.defaults());
                DeviceBuffer a = DeviceBuffer.allocate(256);
                DeviceBuffer b = DeviceBuffer.allocate(256);
                DeviceBuffer c = DeviceBuffer.allocate(512)) {
            assertThatThrownBy(() -> mm.run(Operands.of(a, b, c), stream)).hasMessageContaining("weightScale");
        }
    }

    @Test
    void tooSmallOutputIsRefused() {
        try (Matmul mm = Matmul.plan(lt, Gemm.of(16, 16, 16), device, MatmulOptions.defaults());
                DeviceBuffer a = DeviceBuffer.allocate(512);
                DeviceBuffer c = DeviceBuffer.allocate(100)) {
            assertThatThrownBy(() -> mm.run(Operands.of(a, a, c), stream))
                    .hasMessageContaining("output buffer holds 100 bytes");
        }
    }

    @Test
    void closedMatmulSaysSo() {
        Matmul mm = Matmul.plan(lt, Gemm.of(16, 16, 16), device, MatmulOptions.defaults());
        mm.close();
        mm.close();
        try (DeviceBuffer a = DeviceBuffer.allocate(512)) {
            assertThatThrownBy(() -> mm.run(Operands.of(a, a, a), stream)).hasMessage("matmul already closed");
        }
    }
}
