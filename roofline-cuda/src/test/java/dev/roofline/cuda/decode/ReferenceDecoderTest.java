package dev.roofline.cuda.decode;

import dev.roofline.cuda.decode.ReferenceDecoder.Config;
import dev.roofline.cuda.decode.ReferenceDecoder.Layer;
import dev.roofline.cuda.decode.ReferenceDecoder.Weights;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The decoder on a layer small enough to follow by hand. */
class ReferenceDecoderTest {

    /** hidden 2, one head of 2 (q and KV), intermediate 1, vocab 2, eps 0; RoPE turns pair (0, 1) by pi/2 a step. */
    private static final Config TINY = new Config(2, 1, 1, 2, 1, 2, 0, new double[] {Math.PI / 2});

    private static ReferenceDecoder tiny() {
        Layer layer = new Layer(
                new double[] {1, 1}, // inputNorm
                new double[] {5, 7, -1, 2, 1, 0, 1, 1, 2, 0, 0, -3}, // rows q0 q1, k0 k1, v0 v1
                new double[] {1, -1, 0, 3}, // wo
                new double[] {1, 2}, // postNorm
                new double[] {5, 0, 10, 0}, // wgu: gate row, up row
                new double[] {1, -1}); // wd
        return new ReferenceDecoder(
                TINY, new Weights(List.of(layer), new double[] {1, 1}, new double[] {1, 0, 1, 1}), 1, 2);
    }

    @Test
    void oneTokenAtPositionZeroWorkedByHand() {
        double[] logits = tiny().step(new double[] {2, -2}, new int[] {0});
        // rmsNorm([2, -2]): mean square 4, rms 2, times inputNorm 1: n = [1, -1]
        // v = [2·1 + 0·(-1), 0·1 - 3·(-1)] = [2, 3]; position 0 turns nothing, and with one cached token the
        // softmax weight is 1 whatever q and k are: attention = v = [2, 3]
        // wo: [1·2 - 1·3, 0·2 + 3·3] = [-1, 9]; residual = [2, -2] + [-1, 9] = [1, 7]
        // rmsNorm([1, 7]): mean square (1 + 49) / 2 = 25, rms 5, times postNorm [1, 2]: n = [0.2, 2.8]
        // gate = 5·0.2 = 1, up = 10·0.2 = 2: act = silu(1)·2 = 2 / (1 + e^-1)
        double act = 2 / (1 + Math.exp(-1));
        // wd = [1, -1]: residual = [1 + act, 7 - act]
        double r0 = 1 + act;
        double r1 = 7 - act;
        double rms = Math.sqrt((r0 * r0 + r1 * r1) / 2);
        // finalNorm 1, lmHead rows [1, 0] and [1, 1]
        assertThat(logits).containsExactly(new double[] {r0 / rms, (r0 + r1) / rms}, within(1e-12));
    }

    @Test
    void keysAreCachedTurnedByTheirPositionAndValuesAsProjected() {
        ReferenceDecoder decoder = tiny();
        decoder.step(new double[] {2, -2}, new int[] {0});
        // position 0: n = [1, -1], k = [1·1 + 0·(-1), 1·1 + 1·(-1)] = [1, 0], v = [2, 3]
        assertThat(decoder.kCache(0)).containsExactly(1, 0, 0, 0);
        assertThat(decoder.vCache(0)).containsExactly(2, 3, 0, 0);
        decoder.step(new double[] {1, 1}, new int[] {1});
        // position 1: n = [1, 1], k = [1, 2] turned by pi/2 = [-2, 1]; v = [2, -3], not turned
        assertThat(decoder.kCache(0)).containsExactly(new double[] {1, 0, -2, 1}, within(1e-15));
        assertThat(decoder.vCache(0)).containsExactly(2, 3, 2, -3);
    }

    @Test
    void cachesAreCopies() {
        ReferenceDecoder decoder = tiny();
        decoder.step(new double[] {2, -2}, new int[] {0});
        decoder.kCache(0)[0] = 99;
        decoder.vCache(0)[0] = 99;
        assertThat(decoder.kCache(0)[0]).isEqualTo(1);
        assertThat(decoder.vCache(0)[0]).isEqualTo(2);
    }
}
