package dev.roofline.cuda.decode;

import dev.roofline.cuda.decode.ReferenceDecoder.Config;
import dev.roofline.cuda.decode.ReferenceDecoder.Layer;
import dev.roofline.cuda.decode.ReferenceDecoder.Weights;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The decoder on weights written by hand, small enough to follow. */
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

    @Test
    void queryHeadsOfOneGroupReadTheSameKvHead() {
        // 4 query heads on 2 KV heads of 2: heads 0 and 1 read KV head 0, heads 2 and 3 read KV head 1. Every query
        // head has the same weights and every head-sized block of x is the same, so the heads differ only in the KV
        // head they read. wo and lmHead are identities and wd is zero, so the logits are rmsNorm(x + attention), one
        // block per head.
        Config config = new Config(8, 4, 2, 2, 1, 8, 1e-6, new double[] {0.5});
        SplittableRandom rnd = new SplittableRandom(3);
        double[] wqkv = new double[16 * 8]; // rows: q heads 0-3, k heads 0-1, v heads 0-1; 2 rows each
        double[] qHead = rnd.doubles(2 * 8, -1, 1).toArray();
        for (int head = 0; head < 4; head++) {
            System.arraycopy(qHead, 0, wqkv, head * qHead.length, qHead.length);
        }
        System.arraycopy(rnd.doubles(8 * 8, -1, 1).toArray(), 0, wqkv, 8 * 8, 8 * 8);
        Layer layer = new Layer(
                ones(8), wqkv, identity(8), ones(8), rnd.doubles(2 * 8, -1, 1).toArray(), new double[8]);
        ReferenceDecoder decoder =
                new ReferenceDecoder(config, new Weights(List.of(layer), ones(8), identity(8)), 1, 3);
        for (int position = 0; position < 3; position++) {
            double[] block = rnd.doubles(2, -1, 1).toArray();
            double[] x = new double[8];
            for (int head = 0; head < 4; head++) {
                System.arraycopy(block, 0, x, 2 * head, 2);
            }
            double[] logits = decoder.step(x, new int[] {position});
            assertThat(logits[0]).isEqualTo(logits[2]);
            assertThat(logits[1]).isEqualTo(logits[3]);
            assertThat(logits[4]).isEqualTo(logits[6]);
            assertThat(logits[5]).isEqualTo(logits[7]);
            // the two KV heads hold different keys and values, so the groups see different attention
            assertThat(Math.abs(logits[0] - logits[4]) + Math.abs(logits[1] - logits[5]))
                    .isGreaterThan(1e-3);
        }
    }

    private static double[] ones(int n) {
        double[] a = new double[n];
        Arrays.fill(a, 1);
        return a;
    }

    private static double[] identity(int n) {
        double[] a = new double[n * n];
        for (int i = 0; i < n; i++) {
            a[i * n + i] = 1;
        }
        return a;
    }
}
