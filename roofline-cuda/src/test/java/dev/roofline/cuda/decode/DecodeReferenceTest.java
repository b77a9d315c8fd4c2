package dev.roofline.cuda.decode;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The CPU reference against values worked out by hand. */
class DecodeReferenceTest {

    @Test
    void rmsNormDividesByTheRootMeanSquare() {
        // x = 1, 2, 3, 4: mean square 30 / 4 = 7.5; weight 1, 1, 2, 0.5
        double[] out = DecodeReference.rmsNorm(new double[] {1, 2, 3, 4}, new double[] {1, 1, 2, 0.5}, 1, 0);
        double rms = Math.sqrt(7.5);
        assertThat(out).containsExactly(new double[] {1 / rms, 2 / rms, 6 / rms, 2 / rms}, within(1e-15));
    }

    @Test
    void ropeTurnsEachPairByPositionTimesFrequency() {
        // head_dim 4: pairs (0, 2) at frequency 1 and (1, 3) at frequency 0.01; position 3
        double[] x = {1, 1, 0, 0};
        DecodeReference.rope(x, 1, 1, new int[] {3}, new double[] {1, 0.01});
        assertThat(x)
                .containsExactly(
                        new double[] {Math.cos(3), Math.cos(0.03), Math.sin(3), Math.sin(0.03)}, within(1e-15));
        double[] atZero = {0.5, -2, 3, 7};
        DecodeReference.rope(atZero, 1, 1, new int[] {0}, new double[] {1, 0.01});
        assertThat(atZero).containsExactly(0.5, -2, 3, 7);
    }

    @Test
    void attentionWeighsTheValuesBySoftmax() {
        // one head of 2, two tokens: logits q.k / sqrt(2) = 0 and ln 3, so the weights are 1/4 and 3/4
        double s = Math.log(3) * Math.sqrt(2); // q.k2 = s gives logit ln 3 after the 1/sqrt(2) scale
        double[] q = {s, 0};
        double[] k = {0, 0, 1, 0};
        double[] v = {4, 8, 0, 4};
        double[] out = DecodeReference.attention(q, k, v, new int[] {2}, 1, 1, 1, 2, 2);
        assertThat(out).containsExactly(new double[] {1, 5}, within(1e-12)); // 1/4 (4, 8) + 3/4 (0, 4)
        // only the first token counts at length 1
        assertThat(DecodeReference.attention(q, k, v, new int[] {1}, 1, 1, 1, 2, 2))
                .containsExactly(4, 8);
    }

    @Test
    void groupedQueryHeadsShareTheirKvHead() {
        // 2 query heads on 1 KV head, one token: both read that token's value
        double[] out = DecodeReference.attention(
                new double[] {1, 2, 3, 4}, new double[] {1, 1}, new double[] {5, 6}, new int[] {1}, 1, 2, 1, 2, 1);
        assertThat(out).containsExactly(5, 6, 5, 6);
    }

    @Test
    void siluTimesUp() {
        // silu(0) = 0, silu(2) = 2 / (1 + e^-2)
        double[] out = DecodeReference.siluMul(new double[] {0, 2, 10, 3}, 1, 2);
        assertThat(out).containsExactly(new double[] {0, 2 / (1 + Math.exp(-2)) * 3}, within(1e-15));
    }

    @Test
    void badShapesNameTheInput() {
        assertThatThrownBy(() -> DecodeReference.attention(
                        new double[2], new double[2], new double[2], new int[] {2}, 1, 1, 1, 2, 1))
                .hasMessage("lengths[0] must be in [1, 1], got 2");
        assertThatThrownBy(() -> DecodeReference.siluMul(new double[3], 1, 2))
                .hasMessage("gateUp must hold 4 values, got 3");
    }

    @Test
    void llama3FrequenciesKeepShortWavelengthsAndDivideLongOnes() {
        // Llama 3.1: theta 500000, factor 8, low 1, high 4, original 8192; head_dim 128
        double[] plain = RopeFrequencies.of(128, 500_000);
        double[] scaled = RopeFrequencies.llama3(128, 500_000, 8, 1, 4, 8192);
        assertThat(plain[0]).isEqualTo(1.0);
        assertThat(scaled[0]).isEqualTo(1.0); // wavelength 2 pi < 8192 / 4
        // i = 63: 500000^(-126/128) = 2.4e-6, wavelength 2.6e6 > 8192: divided by 8
        assertThat(scaled[63]).isCloseTo(Math.pow(500_000, -126.0 / 128) / 8, within(1e-20));
        // between 2048 and 8192 tokens of wavelength: a blend; i = 32 has wavelength 2 pi * 500000^(64/128) = 4443
        double f = Math.pow(500_000, -64.0 / 128);
        double smooth = (8192 / (2 * Math.PI / f) - 1) / 3;
        assertThat(scaled[32]).isCloseTo((1 - smooth) * f / 8 + smooth * f, within(1e-18));
        assertThat(smooth).isBetween(0.0, 1.0);
    }
}
