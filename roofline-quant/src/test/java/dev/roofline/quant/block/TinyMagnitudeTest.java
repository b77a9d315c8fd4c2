package dev.roofline.quant.block;

import dev.roofline.core.format.Bf16;
import dev.roofline.core.format.E8M0;
import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Weights of tiny magnitude (max|w| from 3·10^-35 down to the smallest subnormal, and all zeros): every quantizer
 * writes finite scales (never below 2^-126, the {@link Scale} rule) and codes that decode within the format's error
 * bound at that scale. Before the rule FP8 wrote NaN codes with scale 0, NVFP4 threw
 * ArrayIndexOutOfBoundsException and 1 / NVFP4's global scale was infinite.
 */
class TinyMagnitudeTest {
    static final int ROWS = 4, COLS = 128;

    /** Weights with max|w| = amax exactly (one element holds −amax), the rest uniform in (−amax, amax). */
    static float[] weights(float amax, long seed) {
        Random r = new Random(seed);
        float[] w = new float[ROWS * COLS];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) ((r.nextDouble() * 2 - 1) * amax);
        }
        w[r.nextInt(w.length)] = -amax;
        return w;
    }

    /**
     * The worst |x − decoded| a format's grid allows for weights with max|w| = amax under the scale rule: half the
     * widest gap between neighbouring codes (or what saturation loses, if more) times the largest scale the rule can
     * choose, plus one float ulp for rounding the decoded product when it is subnormal. Gaps from the code tables:
     * E4M3 416→448 (32), E5M2 49152→57344 (8192), INT8 and INT4 1, NF4 −1.0→−0.6962, E2M1 4→6.
     */
    static double bound(Precision p, float amax) {
        double minNormal = Float.MIN_NORMAL;
        double mxScale = Math.max(
                Math.scalb(1.0, Math.getExponent((double) amax) - Math.getExponent(p.maxFinite())),
                Math.scalb(1.0, -127));
        double b =
                switch (p) {
                    case FP8_E4M3 -> 16 * Math.max(amax / 448.0, minNormal);
                    case FP8_E5M2 -> 4096 * Math.max(amax / 57344.0, minNormal);
                    case INT8 -> 0.5 * Math.max(amax / 127.0, minNormal);
                    case INT4 -> 0.5 * Math.max(amax / 7.0, minNormal);
                    case NF4 -> (1.0 - 0.6961928009986877) / 2 * amax;
                    // block scale e4m3(blockMax / 6g) · g, rounded up by at most 1/16 or by the E4M3 subnormal step
                    // 2^-9;
                    // then half the widest E2M1 gap (1) times it
                    case NVFP4 -> 1.0625 * amax / 6 + Math.scalb(1.0, -9) * Math.max(amax / 2688.0, minNormal);
                    // one power-of-two scale X per 32; saturating at the largest element loses at most 2^(emax+1) − max
                    case MXFP8_E4M3 -> 64 * mxScale;
                    case MXFP8_E5M2 -> 8192 * mxScale;
                    case MXFP6_E3M2 -> 4 * mxScale;
                    case MXFP6_E2M3 -> 0.5 * mxScale;
                    case MXFP4 -> 2 * mxScale;
                    case MXINT8 -> mxScale / 64;
                    default -> throw new IllegalArgumentException(p.toString());
                };
        return b + Float.MIN_VALUE;
    }

    @ParameterizedTest
    @ValueSource(floats = {3e-35f, 1e-36f, 1e-38f, 1e-40f, 1e-43f, Float.MIN_VALUE, 0f})
    void everyQuantizerDecodesTinyWeightsWithinItsErrorBound(float amax) {
        float[] w = weights(amax, Float.floatToIntBits(amax));
        for (Precision p : Quantizers.SUPPORTED) {
            QuantizedTensor q = Quantizers.quantize(p, w, ROWS, COLS);
            assertFiniteScales(q);
            float[] d = q.dequantize();
            double bound = bound(p, amax);
            for (int i = 0; i < w.length; i++) {
                String at = p + " amax " + amax + " w[" + i + "] = " + w[i] + " decoded " + d[i];
                assertThat(Float.isFinite(d[i])).as(at).isTrue();
                assertThat((double) Math.abs(w[i] - d[i])).as(at).isLessThanOrEqualTo(bound);
                // zero is a code of every format, so rounding to nearest never lands further away than 0
                assertThat(Math.abs(w[i] - d[i])).as(at).isLessThanOrEqualTo(Math.abs(w[i]) + Float.MIN_VALUE);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(floats = {3e-35f, 1e-36f, 1e-38f, 1e-40f, 1e-43f, Float.MIN_VALUE, 0f})
    void theOtherQuantizerVariantsKeepFiniteScalesToo(float amax) {
        float[] w = weights(amax, 7);
        List<QuantizedTensor> variants = List.of(
                Fp8Tensor.quantize(Precision.FP8_E4M3, w, ROWS, COLS, false),
                Int4Tensor.quantize(w, ROWS, COLS, 32, false),
                Nvfp4Quantizer.fourOverSix().quantize(w, ROWS, COLS),
                Nvfp4Quantizer.modelOpt().quantize(w, ROWS, COLS, false));
        for (QuantizedTensor q : variants) {
            assertFiniteScales(q);
            float[] d = q.dequantize();
            for (int i = 0; i < w.length; i++) {
                assertThat(Math.abs(w[i] - d[i]))
                        .as(q.precision() + " amax " + amax + " w[" + i + "]")
                        .isLessThanOrEqualTo(Math.abs(w[i]) + Float.MIN_VALUE);
            }
        }
    }

    @Test
    void bf16WeightsOfTinyMagnitudeQuantizeLikeTheirFloats() {
        short[] bits = new short[ROWS * COLS];
        float[] w = new float[bits.length];
        float[] source = weights(1e-39f, 3);
        for (int i = 0; i < bits.length; i++) {
            bits[i] = (short) (Float.floatToRawIntBits(source[i]) >>> 16);
            w[i] = Bf16.decode(bits[i]);
        }
        Nvfp4Tensor fromBits = Nvfp4Quantizer.modelOpt().quantizeBf16(bits, ROWS, COLS);
        Nvfp4Tensor fromFloats = Nvfp4Quantizer.modelOpt().quantize(w, ROWS, COLS);
        assertThat(fromBits.globalScale()).isEqualTo(Float.MIN_NORMAL);
        assertThat(fromBits.packed()).isEqualTo(fromFloats.packed());
        assertThat(fromBits.blockScales()).isEqualTo(fromFloats.blockScales());
    }

    @Test
    void fp8OfASubnormalWeightUsesTheSmallestNormalScale() {
        float[] w = new float[16];
        w[0] = 1e-40f; // 71362 · 2^-149
        Fp8Tensor q = Fp8Tensor.quantize(Precision.FP8_E4M3, w, 1, 16, false);
        // 1e-40 / 448 underflows below 2^-126: the scale is 2^-126
        assertThat(q.scales()).containsExactly(Float.MIN_NORMAL);
        // 1e-40 / 2^-126 = 71362 · 2^-23 = 0.0085070; in E4M3 subnormal steps of 2^-9 that is 4.356 → code 4
        assertThat(q.codes()[0]).isEqualTo((byte) 4);
        assertThat(q.dequantize()[0]).isEqualTo(0x1p-133f);
        for (int i = 1; i < 16; i++) {
            assertThat(q.codes()[i]).isZero();
        }
    }

    @Test
    void nvfp4OfASubnormalWeightHasAFiniteReciprocalGlobalScale() {
        float[] w = new float[16];
        w[0] = 1e-40f;
        Nvfp4Tensor q = Nvfp4Quantizer.modelOpt().quantize(w, 1, 16);
        assertThat(q.globalScale()).isEqualTo(Float.MIN_NORMAL);
        // what compressed-tensors stores: 2^126 = 8.507059e37, not infinity
        assertThat(q.reciprocalGlobalScale()).isEqualTo(0x1p126f);
        // block scale 1e-40 / (6 · 2^-126) = 0.0014178, in E4M3 steps of 2^-9: 0.726 → code 1 (2^-9)
        assertThat(q.blockScales()[0]).isEqualTo((byte) 1);
        // element 1e-40 / 2^-135 = 71362 / 16384 = 4.356 → E2M1 4 (code 6); decoded 4 · 2^-135 = 2^-133
        assertThat(q.code(0)).isEqualTo(6);
        assertThat(q.dequantize()[0]).isEqualTo(0x1p-133f);
    }

    @Test
    void allZeroWeightsGetScaleOneAndZeroCodes() {
        float[] w = new float[ROWS * COLS];
        assertThat(Fp8Tensor.quantize(Precision.FP8_E4M3, w, ROWS, COLS, true).scales())
                .containsOnly(1f);
        Nvfp4Tensor n = Nvfp4Quantizer.modelOpt().quantize(w, ROWS, COLS);
        assertThat(n.globalScale()).isEqualTo(1f);
        assertThat(n.reciprocalGlobalScale()).isEqualTo(1f);
        assertThat(n.packed()).containsOnly((byte) 0);
        assertThat(Int8Tensor.quantizePerChannel(w, ROWS, COLS).scales()).containsOnly(1f);
    }

    static void assertFiniteScales(QuantizedTensor q) {
        switch (q) {
            case Fp8Tensor f -> assertNormalScales(q, f.scales());
            case Int8Tensor i -> assertNormalScales(q, i.scales());
            case Int4Tensor i -> assertNormalScales(q, i.scales());
            case Nf4Tensor n -> {
                for (float m : n.absmax()) {
                    assertThat(Float.isFinite(m) && m >= 0)
                            .as("NF4 absmax " + m)
                            .isTrue();
                }
            }
            case Nvfp4Tensor n -> {
                assertThat(n.globalScale()).as("NVFP4 global scale").isGreaterThanOrEqualTo(Float.MIN_NORMAL);
                assertThat(Float.isFinite(n.reciprocalGlobalScale())).isTrue();
                for (byte s : n.blockScales()) { // E4M3 NaN is 0x7F; scales are never negative
                    assertThat(s & 0xFF).as("NVFP4 block scale code").isLessThanOrEqualTo(0x7E);
                }
            }
            case MxTensor m -> {
                for (byte s : m.scales()) {
                    assertThat(Double.isFinite(E8M0.decode(s & 0xFF)))
                            .as(m.precision() + " E8M0 scale")
                            .isTrue();
                }
            }
            default -> throw new AssertionError("unexpected tensor type " + q.getClass());
        }
    }

    static void assertNormalScales(QuantizedTensor q, float[] scales) {
        for (float s : scales) {
            assertThat(Float.isFinite(s) && s >= Float.MIN_NORMAL)
                    .as(q.precision() + " scale " + s)
                    .isTrue();
        }
    }
}
