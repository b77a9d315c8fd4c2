package dev.roofline.quant.block;

import dev.roofline.core.format.E2M1;
import dev.roofline.core.format.MiniFloat;
import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class Nvfp4QuantizerTest {

    /** Row 0: 448 x (every E2M1 magnitude and every tie); row 1: one value that forces an inexact block scale. */
    static float[] handExample() {
        float[] v = {6, 4, 3, 2, 1.5f, 1, 0.5f, 0, -0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5, -6};
        float[] w = new float[32];
        for (int i = 0; i < 16; i++) {
            w[i] = 448 * v[i];
        }
        w[16] = 224;
        return w;
    }

    @Test
    void matchesAHandQuantizedModelOptTensor() {
        Nvfp4Tensor t = Nvfp4Quantizer.modelOpt().quantize(handExample(), 2, 16);
        // amax = 448 * 6 = 2688, so the global scale is 2688 / (6 * 448) = 1 exactly
        assertThat(t.globalScale()).isEqualTo(1f);
        // block 0: 2688 / (6 * 1) = 448 -> E4M3 0x7E; block 1: 224 / 6 = 37.33 -> nearest E4M3 is 36 = 0x61
        assertThat(t.blockScales()).containsExactly((byte) 0x7E, (byte) 0x61);
        // codes 7 6 5 4 3 2 1 0 | -0.25 -> -0 (8), ties 0.75->1.0 (2), 1.25->1.0 (2), 1.75->2 (4), 2.5->2 (4),
        // 3.5->4 (6), 5->4 (6), -6 (15); two per byte, element 2i in the low nibble
        assertThat(t.packed())
                .startsWith(
                        (byte) 0x67,
                        (byte) 0x45,
                        (byte) 0x23,
                        (byte) 0x01,
                        (byte) 0x28,
                        (byte) 0x42,
                        (byte) 0x64,
                        (byte) 0xF6);
        // row 1: 224 / 36 = 6.2 saturates to 6 (code 7); the rest are 0
        assertThat(t.packed()[8]).isEqualTo((byte) 0x07);
        float[] back = t.dequantize();
        assertThat(back[16]).isEqualTo(6 * 36f);
        assertThat(back[9]).isEqualTo(448f); // 0.75 * 448 came back as 1.0 * 448
        assertThat(t.storageBytes()).isEqualTo(Precision.NVFP4.storageBytes(2, 16));
    }

    @Test
    void fourOverSixKeepsTheLowerErrorScale() {
        float[] w = new float[32];
        w[0] = 2688; // block 0 pins the global scale at 1
        w[16] = 1.0f;
        for (int i = 17; i < 32; i++) {
            w[i] = 0.85f;
        }
        Nvfp4Tensor plain = Nvfp4Quantizer.modelOpt().quantize(w, 1, 32);
        Nvfp4Tensor chosen = Nvfp4Quantizer.fourOverSix().quantize(w, 1, 32);
        // scale to 6: 1/6 -> E4M3 0.171875 and 0.85 lands at 4.95 -> 4 (0.6875); scale to 4: 0.25 and 0.85 -> 3 (0.75)
        assertThat(MiniFloat.of(Precision.FP8_E4M3).decode(plain.blockScales()[1] & 0xFF))
                .isEqualTo(0.171875);
        assertThat(MiniFloat.of(Precision.FP8_E4M3).decode(chosen.blockScales()[1] & 0xFF))
                .isEqualTo(0.25);
        assertThat(chosen.dequantize()[20]).isEqualTo(0.75f);
        double plainErr = ErrorMetrics.of(w, plain.dequantize()).mse();
        double chosenErr = ErrorMetrics.of(w, chosen.dequantize()).mse();
        assertThat(chosenErr).isLessThan(plainErr);
    }

    @Test
    void fourOverSixIsNeverWorse() {
        Random r = new Random(11);
        float[] w = new float[64 * 256];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) (r.nextGaussian() * (r.nextInt(100) == 0 ? 20 : 1));
        }
        double plain = ErrorMetrics.of(
                        w, Nvfp4Quantizer.modelOpt().quantize(w, 64, 256).dequantize())
                .mse();
        double chosen = ErrorMetrics.of(
                        w, Nvfp4Quantizer.fourOverSix().quantize(w, 64, 256).dequantize())
                .mse();
        assertThat(chosen).isLessThanOrEqualTo(plain);
    }

    @Test
    void vectorAndScalarPathsGiveIdenticalBytes() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Nvfp4Quantizer.VECTOR, "jdk.incubator.vector is not in this JVM");
        Random r = new Random(17);
        for (int round = 0; round < 20; round++) {
            int rows = 1 + r.nextInt(40);
            int cols = 16 * (1 + r.nextInt(40));
            float[] w = new float[rows * cols];
            for (int i = 0; i < w.length; i++) {
                w[i] = switch (r.nextInt(4)) {
                    case 0 -> (float) (r.nextGaussian() * Math.pow(10, r.nextInt(8) - 5));
                    case 1 -> 448f * E2M1.decode(r.nextInt(16)) / 2; // ties after scaling
                    case 2 -> r.nextBoolean() ? -0f : 0f;
                    default -> (float) (r.nextDouble() - 0.5) * 1e-3f;
                };
            }
            Nvfp4Tensor vector = Nvfp4Quantizer.modelOpt().quantize(w, rows, cols, true);
            Nvfp4Tensor scalar = Nvfp4Quantizer.modelOpt().quantize(w, rows, cols, false);
            assertThat(vector.packed()).as("round %d", round).isEqualTo(scalar.packed());
            assertThat(vector.blockScales()).isEqualTo(scalar.blockScales());
            assertThat(vector.globalScale()).isEqualTo(scalar.globalScale());
        }
    }

    @Test
    void bf16InputGivesTheSameBytesAsItsFloatValues() {
        Random r = new Random(4);
        int rows = 24, cols = 96;
        short[] bf16 = new short[rows * cols];
        float[] widened = new float[bf16.length];
        for (int i = 0; i < bf16.length; i++) {
            bf16[i] = (short)
                    (Float.floatToRawIntBits((float) (r.nextGaussian() * (r.nextInt(50) == 0 ? 30 : 0.5))) >>> 16);
            widened[i] = Float.intBitsToFloat(bf16[i] << 16);
        }
        Nvfp4Tensor fromBits = Nvfp4Quantizer.modelOpt().quantizeBf16(bf16, rows, cols);
        Nvfp4Tensor fromFloats = Nvfp4Quantizer.modelOpt().quantize(widened, rows, cols);
        assertThat(fromBits.packed()).isEqualTo(fromFloats.packed());
        assertThat(fromBits.blockScales()).isEqualTo(fromFloats.blockScales());
        assertThat(fromBits.globalScale()).isEqualTo(fromFloats.globalScale());
        bf16[5] = (short) 0x7FC0; // NaN
        assertThatThrownBy(() -> Nvfp4Quantizer.modelOpt().quantizeBf16(bf16, rows, cols))
                .hasMessageContaining("bf16[5] is NaN");
        bf16[5] = (short) 0xFF80; // -infinity
        assertThatThrownBy(() -> Nvfp4Quantizer.modelOpt().quantizeBf16(bf16, rows, cols))
                .hasMessageContaining("bf16[5] is -Infinity");
    }

    @Test
    void rejectsShapesModelOptCannotStore() {
        assertThatThrownBy(() -> Nvfp4Quantizer.modelOpt().quantize(new float[24], 2, 12))
                .hasMessageContaining("multiple of 16, got 12");
        assertThatThrownBy(() -> Nvfp4Quantizer.modelOpt().quantize(new float[16], 2, 16))
                .hasMessageContaining("values has 16 elements, expected rows x cols = 2 x 16 = 32");
        float[] bad = new float[16];
        bad[3] = Float.NaN;
        assertThatThrownBy(() -> Nvfp4Quantizer.modelOpt().quantize(bad, 1, 16))
                .hasMessageContaining("values[3] is NaN");
    }
}
