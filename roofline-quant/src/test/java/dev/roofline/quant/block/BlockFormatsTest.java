package dev.roofline.quant.block;

import dev.roofline.core.format.E8M0;
import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class BlockFormatsTest {

    @Test
    void mxfp8SharedScaleIsFloorLog2AmaxMinusEmax() {
        float[] w = new float[32];
        w[0] = 0.75f;
        w[1] = 0.3f;
        MxTensor t = MxQuantizer.quantize(Precision.MXFP8_E4M3, w, 1, 32);
        // floor(log2 0.75) = -1, emax(E4M3) = 8 -> X = 2^-9 -> code 127 - 9 = 118
        assertThat(t.scales()[0] & 0xFF).isEqualTo(118);
        // 0.3 / 2^-9 = 153.6 -> E4M3 step 16 in [128, 256) -> 160 -> 160 * 2^-9 = 0.3125
        assertThat(t.dequantize()[1]).isEqualTo(0.3125f);
        assertThat(t.dequantize()[0]).isEqualTo(0.75f);
    }

    @Test
    void mxfp4RoundsHalfToEvenAndClampsAndKeepsPartialBlocks() {
        float[] w = new float[40];
        w[0] = 5f; // floor(log2 5) = 2, emax(E2M1) = 2 -> X = 1; 5 is a tie between 4 and 6 -> 4
        w[1] = -7f; // amax 7: same X; 7 clamps to 6 (sign kept)
        w[32] = 0.5f; // second (partial) block: floor(log2 0.5) = -1 -> X = 2^-3 -> 0.5 / 0.125 = 4
        MxTensor t = MxQuantizer.quantize(Precision.MXFP4, w, 1, 40);
        assertThat(t.blocksPerRow()).isEqualTo(2);
        assertThat(t.scales()).containsExactly((byte) 127, (byte) 124);
        float[] back = t.dequantize();
        assertThat(back[0]).isEqualTo(4f);
        assertThat(back[1]).isEqualTo(-6f);
        assertThat(back[32]).isEqualTo(0.5f);
        assertThat(t.storageBytes()).isEqualTo(20 + 2); // 40 FP4 codes + 2 E8M0 scales
        assertThat(t.packedFp4()).hasSize(20);
        assertThat(t.packedFp4()[0] & 0xFF).isEqualTo(0x06 | (0x0F << 4)); // 4 = code 6 low, -6 = code 15 high
    }

    @Test
    void mxint8UsesAnImplicitTwoToTheMinusSix() {
        float[] w = {1.5f, 0.01f, -1.5f};
        MxTensor t = MxQuantizer.quantize(Precision.MXINT8, w, 1, 3);
        assertThat(t.scales()[0] & 0xFF).isEqualTo(E8M0.BIAS); // floor(log2 1.5) = 0, emax 0
        assertThat(t.codes()).containsExactly((byte) 96, (byte) 1, (byte) -96); // 1.5*64, rint(0.64), -96
        assertThat(t.dequantize()[1]).isEqualTo(1f / 64);
    }

    @Test
    void allZeroMxBlockGetsTheSmallestScale() {
        MxTensor t = MxQuantizer.quantize(Precision.MXFP6_E2M3, new float[32], 1, 32);
        assertThat(t.scales()[0]).isZero();
        assertThat(t.dequantize()).containsOnly(0f);
    }

    @Test
    void int8PerChannelRoundsHalfToEven() {
        Int8Tensor t = Int8Tensor.quantizePerChannel(new float[] {127, -63.5f, 0.5f, 0, 0, 0}, 2, 3);
        assertThat(t.scales()).containsExactly(1f, 1f); // row 0: 127/127; row 1 all zero -> 1
        assertThat(t.values()).containsExactly((byte) 127, (byte) -64, (byte) 0, (byte) 0, (byte) 0, (byte) 0);
        assertThat(t.storageBytes()).isEqualTo(6 + 8);
    }

    @Test
    void int4SymmetricAndAsymmetricGroups() {
        Int4Tensor sym = Int4Tensor.quantize(new float[] {7, -7, 3.5f, 0}, 1, 4, 4, true);
        assertThat(sym.scales()).containsExactly(1f);
        assertThat(new int[] {sym.code(0), sym.code(1), sym.code(2), sym.code(3)})
                .containsExactly(7, -7, 4, 0);
        assertThat(sym.packed()).containsExactly((byte) 0x97, (byte) 0x04); // -7 = 0x9 (two's complement), 7 low
        Int4Tensor asym = Int4Tensor.quantize(new float[] {0, 15, 7.5f, 3}, 1, 4, 4, false);
        assertThat(asym.zeros()).containsExactly((byte) 0);
        assertThat(asym.dequantize()).containsExactly(0f, 15f, 8f, 3f);
        assertThatThrownBy(() -> Int4Tensor.quantize(new float[6], 1, 6, 4, true))
                .hasMessageContaining("groupSize 4, cols 6");
    }

    @Test
    void int4ReportsItsGroupScalesWhereRooflineCoreCanCountThem() {
        float[] w = new float[2 * 256];
        assertThat(Int4Tensor.quantize(w, 2, 256, 128, true).precision()).isEqualTo(Precision.INT4_G128);
        // groups of 64 and zero points have no precision of their own: the flat INT4
        assertThat(Int4Tensor.quantize(w, 2, 256, 64, true).precision()).isEqualTo(Precision.INT4);
        assertThat(Int4Tensor.quantize(w, 2, 256, 128, false).precision()).isEqualTo(Precision.INT4);
        // and the quantizer picks groups of 128 where K allows
        assertThat(Quantizers.quantize(Precision.INT4, w, 2, 256).precision()).isEqualTo(Precision.INT4_G128);
    }

    @Test
    void nf4PacksTheFirstElementInTheHighNibble() {
        float[] w = new float[64];
        w[0] = 1f;
        w[1] = -1f;
        w[2] = 0.5f; // nearest NF4 value to 0.5 is 0.4407 (code 12) rather than 0.5626 (code 13)
        Nf4Tensor t = Nf4Tensor.quantize(w, 1, 64);
        assertThat(t.absmax()).containsExactly(1f);
        assertThat(t.packed()[0] & 0xFF).isEqualTo(0xF0); // codes 15 (1.0) high, 0 (-1.0) low
        assertThat(t.packed()[1] & 0xFF).isEqualTo(0xC7); // code 12, then 0.0 = code 7
        assertThat(t.dequantize()[2]).isEqualTo(0.44070982933044434f);
    }

    @Test
    void fp8PerTensorAndPerChannelScales() {
        Fp8Tensor t = Fp8Tensor.quantize(Precision.FP8_E4M3, new float[] {896, 300}, 1, 2, false);
        assertThat(t.scales()).containsExactly(2f); // 896 / 448
        assertThat(t.dequantize()[1]).isEqualTo(288f); // 150 -> 144 (step 16 in [128, 256)) -> x2
        Fp8Tensor pc = Fp8Tensor.quantize(Precision.FP8_E4M3, new float[] {448, 1, 4, 2}, 2, 2, true);
        assertThat(pc.scales()).containsExactly(1f, 4f / 448);
        assertThat(pc.perChannel()).isTrue();
    }

    @Test
    void errorMetricsByHand() {
        ErrorMetrics m = ErrorMetrics.of(new float[] {1, 2, 3}, new float[] {1, 2, 4});
        assertThat(m.mse()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(m.sqnrDb()).isCloseTo(10 * Math.log10(14.0), within(1e-12));
        assertThat(m.maxAbsError()).isEqualTo(1);
        assertThat(m.cosine()).isCloseTo(17 / Math.sqrt(14.0 * 21), within(1e-12));
        assertThat(ErrorMetrics.of(new float[] {1}, new float[] {1}).sqnrDb()).isInfinite();
        assertThatThrownBy(() -> ErrorMetrics.of(new float[2], new float[3])).hasMessageContaining("got 2 and 3");
    }

    @Test
    void moreBitsGiveMoreSignalToNoise() {
        Random r = new Random(5);
        int rows = 64, cols = 512;
        float[] w = new float[rows * cols];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) (r.nextGaussian() * 0.02 * (r.nextInt(200) == 0 ? 30 : 1)); // weights with outliers
        }
        double mxfp8 = sqnr(w, MxQuantizer.quantize(Precision.MXFP8_E4M3, w, rows, cols));
        double mxfp6 = sqnr(w, MxQuantizer.quantize(Precision.MXFP6_E2M3, w, rows, cols));
        double mxfp4 = sqnr(w, MxQuantizer.quantize(Precision.MXFP4, w, rows, cols));
        double nvfp4 = sqnr(w, Nvfp4Quantizer.modelOpt().quantize(w, rows, cols));
        double int8 = sqnr(w, Int8Tensor.quantizePerChannel(w, rows, cols));
        double int4 = sqnr(w, Int4Tensor.quantize(w, rows, cols, 128, true));
        assertThat(mxfp8).isGreaterThan(mxfp6);
        assertThat(mxfp6).isGreaterThan(mxfp4);
        assertThat(nvfp4).isGreaterThan(mxfp4); // smaller blocks and finer scales
        assertThat(int8).isGreaterThan(int4);
    }

    private static double sqnr(float[] w, QuantizedTensor t) {
        return ErrorMetrics.of(w, t.dequantize()).sqnrDb();
    }
}
