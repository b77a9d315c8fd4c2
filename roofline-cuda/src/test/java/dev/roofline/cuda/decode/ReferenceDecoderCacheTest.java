package dev.roofline.cuda.decode;

import dev.roofline.cuda.decode.ReferenceDecoder.Config;
import dev.roofline.cuda.decode.ReferenceDecoder.Weights;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** Decoding one token at a time through the KV caches gives what recomputing the whole sequence gives. */
class ReferenceDecoderCacheTest {

    /** Two layers of grouped-query attention: 4 query heads on 2 KV heads of 64. */
    private static final Config GQA = new Config(256, 4, 2, 64, 512, 1000, 1e-5, RopeFrequencies.of(64, 10_000));

    @Test
    void eachStepMatchesAFullRecomputationOfTheSequenceSoFar() {
        int tokens = 8;
        Weights weights = Weights.random(GQA, 2, 7);
        ReferenceDecoder decoder = new ReferenceDecoder(GQA, weights, 1, tokens); // the last step fills the cache
        SplittableRandom rnd = new SplittableRandom(11);
        List<double[]> sequence = new ArrayList<>();
        double[] previous = null;
        for (int t = 0; t < tokens; t++) {
            double[] x = rnd.doubles(GQA.hidden(), -1, 1).toArray();
            sequence.add(x);
            double[] logits = decoder.step(x, new int[] {t});
            double[] expected = FullRecomputation.lastLogits(GQA, weights, sequence);
            assertThat(logits).hasSameSizeAs(expected);
            // a difference rather than containsExactly(..., within): AssertJ takes seconds over 1000 elements
            assertThat(maxAbsDifference(logits, expected)).as("step %d", t).isLessThan(1e-9);
            if (previous != null) { // each token changes the logits well beyond the tolerance: the check has teeth
                assertThat(maxAbsDifference(logits, previous)).isGreaterThan(1e-3);
            }
            previous = logits;
        }
    }

    private static double maxAbsDifference(double[] a, double[] b) {
        double max = 0;
        for (int i = 0; i < a.length; i++) {
            max = Math.max(max, Math.abs(a[i] - b[i]));
        }
        return max;
    }
}
