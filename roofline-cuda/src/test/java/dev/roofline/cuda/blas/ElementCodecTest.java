package dev.roofline.cuda.blas;

import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ElementCodecTest {

    private static int code(Precision p, float v) {
        return ElementCodec.encode(p, new float[] {v})[0] & 0xFF;
    }

    @Test
    void oneInEachFormat() {
        // FP16 1.0 = 0x3C00, BF16 1.0 = 0x3F80 (little-endian bytes), E4M3 1.0 = 0 0111 000, E5M2 1.0 = 0 01111 00
        assertThat(ElementCodec.encode(Precision.FP16, new float[] {1f})).containsExactly(0x00, 0x3C);
        assertThat(ElementCodec.encode(Precision.BF16, new float[] {1f})).containsExactly((byte) 0x80, 0x3F);
        assertThat(code(Precision.FP8_E4M3, 1f)).isEqualTo(0x38);
        assertThat(code(Precision.FP8_E5M2, 1f)).isEqualTo(0x3C);
    }

    @Test
    void fp8SaturatesAtItsLargestFiniteValue() {
        // E4M3: 1.75 * 2^8 = 448 at 0x7E; E5M2: 1.75 * 2^15 = 57344 at 0x7B
        assertThat(code(Precision.FP8_E4M3, 1000f)).isEqualTo(0x7E);
        assertThat(ElementCodec.decode(Precision.FP8_E4M3, new byte[] {0x7E})).containsExactly(448.0);
        assertThat(code(Precision.FP8_E5M2, -1e6f)).isEqualTo(0xFB);
        assertThat(ElementCodec.decode(Precision.FP8_E5M2, new byte[] {0x7B})).containsExactly(57344.0);
    }

    @Test
    void fp8TiesGoToTheEvenCode() {
        // E4M3 steps by 0.125 in [1, 2): 1.0625 lies halfway between 1.0 (0x38) and 1.125 (0x39)
        assertThat(code(Precision.FP8_E4M3, 1.0625f)).isEqualTo(0x38);
        // 1.1875 lies halfway between 1.125 (0x39) and 1.25 (0x3A)
        assertThat(code(Precision.FP8_E4M3, 1.1875f)).isEqualTo(0x3A);
    }

    @Test
    void fp8SubnormalsDecode() {
        // E4M3 smallest subnormal: 2^-3 * 2^-6 = 2^-9
        assertThat(ElementCodec.decode(Precision.FP8_E4M3, new byte[] {0x01})).containsExactly(Math.scalb(1.0, -9));
    }

    @Test
    void bf16RoundsToNearestEven() {
        // 1 + 2^-8 is halfway between 1.0 and 1 + 2^-7: ties to even keeps 1.0
        float half = 1f + (float) Math.scalb(1.0, -8);
        assertThat(ElementCodec.decode(Precision.BF16, ElementCodec.encode(Precision.BF16, new float[] {half})))
                .containsExactly(1.0);
        float above = Math.nextUp(half);
        assertThat(ElementCodec.decode(Precision.BF16, ElementCodec.encode(Precision.BF16, new float[] {above})))
                .containsExactly(1.0 + Math.scalb(1.0, -7));
    }

    @Test
    void nanEncodesToTheFormatsNanCode() {
        // E4M3 (OCP "fn"): S.1111.111; E5M2 (IEEE-like): exponent 11111 with a non-zero mantissa, quiet 0x7E as
        // ml_dtypes
        assertThat(code(Precision.FP8_E4M3, Float.NaN)).isEqualTo(0x7F);
        assertThat(code(Precision.FP8_E5M2, Float.NaN)).isEqualTo(0x7E);
        for (Precision p : new Precision[] {Precision.FP16, Precision.BF16, Precision.FP8_E4M3, Precision.FP8_E5M2}) {
            assertThat(ElementCodec.decode(p, ElementCodec.encode(p, new float[] {Float.NaN}))[0])
                    .as("%s", p)
                    .isNaN();
        }
    }

    @Test
    void int32OutputsDecodeLittleEndian() {
        assertThat(ElementCodec.decodeInt32(
                        new byte[] {(byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 1, 0, 0, 0}))
                .containsExactly(-2.0, 1.0);
    }

    @Test
    void randomDataIsNotZeros() {
        float[] v = ElementCodec.random(Precision.INT8, 1000, 7, 0);
        assertThat(v).contains(127f, -127f);
        for (float x : ElementCodec.random(Precision.FP16, 1000, 7, 0)) {
            assertThat(x).isBetween(-1f, 1f).isNotZero();
        }
    }

    @Test
    void nvfp4ElementsPackTwoToAByteLowNibbleFirst() {
        // E2M1 (OCP MX): 1.0 is code 2, -6 is sign 8 + code 7 = 15, 0.5 is code 1
        byte[] b = ElementCodec.encode(Precision.NVFP4, new float[] {1f, -6f, 0.5f});
        assertThat(b).containsExactly((byte) 0xF2, 0x01);
        assertThat(ElementCodec.decode(Precision.NVFP4, b)).containsExactly(1.0, -6.0, 0.5, 0.0);
        assertThat(ElementCodec.bitsPerElement(Precision.NVFP4)).isEqualTo(4);
    }

    @Test
    void mxfp8ElementsAreE4m3Codes() {
        // E4M3 1.0: exponent 7 (bias 7), mantissa 0 = 0x38; 448 saturates to 0x7E
        assertThat(ElementCodec.encode(Precision.MXFP8_E4M3, new float[] {1f, 1000f}))
                .containsExactly(0x38, 0x7E);
        assertThat(ElementCodec.decode(Precision.MXFP8_E4M3, new byte[] {0x38})).containsExactly(1.0);
    }

    @Test
    void nvfp4RandomValuesUseE2m1sWholeRange() {
        float[] v = ElementCodec.random(Precision.NVFP4, 1000, 7, 4f);
        float lo = Float.MAX_VALUE, hi = -Float.MAX_VALUE;
        for (float x : v) {
            lo = Math.min(lo, x);
            hi = Math.max(hi, x);
        }
        assertThat(lo).isGreaterThanOrEqualTo(-6f).isLessThan(-4f);
        assertThat(hi).isLessThan(6f).isGreaterThan(4f);
    }

    @Test
    void formatsWithoutAHostEncodingAreNamed() {
        assertThatThrownBy(() -> ElementCodec.encode(Precision.MXFP4, new float[1]))
                .hasMessageContaining("MXFP4");
    }
}
