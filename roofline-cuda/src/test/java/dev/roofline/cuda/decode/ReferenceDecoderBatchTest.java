package dev.roofline.cuda.decode;

import dev.roofline.cuda.decode.ReferenceDecoder.Config;
import dev.roofline.cuda.decode.ReferenceDecoder.Weights;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The rows of a batch do not see each other: each gives what it gives run alone, bit for bit. */
class ReferenceDecoderBatchTest {

    private static final Config CONFIG = new Config(16, 4, 2, 4, 8, 10, 1e-5, RopeFrequencies.of(4, 10_000));
    private static final int CAPACITY = 6;

    @Test
    void raggedRowsMatchTheRowsRunAlone() {
        // row 0 decodes one sequence at positions 0..4; row 1 decodes a sequence at 0, 1, then a new one from 0 in
        // the same slot (continuous batching): 0, 1, 0, 1, 2
        int[][] positions = {{0, 0}, {1, 1}, {2, 0}, {3, 1}, {4, 2}};
        Weights weights = Weights.random(CONFIG, 2, 5);
        ReferenceDecoder batch = new ReferenceDecoder(CONFIG, weights, 2, CAPACITY);
        ReferenceDecoder row0 = new ReferenceDecoder(CONFIG, weights, 1, CAPACITY);
        ReferenceDecoder row1First = new ReferenceDecoder(CONFIG, weights, 1, CAPACITY);
        ReferenceDecoder row1Second = new ReferenceDecoder(CONFIG, weights, 1, CAPACITY);
        SplittableRandom rnd = new SplittableRandom(9);
        int h = CONFIG.hidden();
        int v = CONFIG.vocab();
        for (int[] step : positions) {
            double[] x = rnd.doubles(2 * h, -1, 1).toArray();
            double[] logits = batch.step(x, step);
            ReferenceDecoder alone1 = step[0] < 2 ? row1First : row1Second;
            assertThat(Arrays.copyOfRange(logits, 0, v))
                    .containsExactly(row0.step(Arrays.copyOfRange(x, 0, h), new int[] {step[0]}));
            assertThat(Arrays.copyOfRange(logits, v, 2 * v))
                    .containsExactly(alone1.step(Arrays.copyOfRange(x, h, 2 * h), new int[] {step[1]}));
        }
        // each row's half of the caches is its own: row 1's holds the second sequence, which overwrote slots 0 and 1
        for (int layer = 0; layer < 2; layer++) {
            assertThat(halves(batch.kCache(layer)))
                    .isDeepEqualTo(new double[][] {row0.kCache(layer), row1Second.kCache(layer)});
            assertThat(halves(batch.vCache(layer)))
                    .isDeepEqualTo(new double[][] {row0.vCache(layer), row1Second.vCache(layer)});
        }
    }

    private static double[][] halves(double[] a) {
        return new double[][] {Arrays.copyOfRange(a, 0, a.length / 2), Arrays.copyOfRange(a, a.length / 2, a.length)};
    }
}
