package dev.roofline.cuda.decode;

import dev.roofline.cuda.decode.ReferenceDecoder.Config;
import dev.roofline.cuda.decode.ReferenceDecoder.Weights;
import dev.roofline.cuda.kernels.KvCacheFormat;
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

    @Test
    void anFp8CacheHoldsTheExactCachesValuesRoundedToE4M3TimesTheScales() {
        // after one step both caches hold the same token's k and v (the first step's attention reads only itself, so
        // nothing upstream of the first layer's cache differs); the FP8 one holds them rounded
        KvCacheFormat kv = KvCacheFormat.fp8(0.25f, 0.125f);
        Weights weights = Weights.random(GQA, 1, 3);
        ReferenceDecoder exact = new ReferenceDecoder(GQA, weights, 1, 4);
        ReferenceDecoder fp8 = new ReferenceDecoder(GQA, weights, 1, 4, kv);
        double[] x = new SplittableRandom(5).doubles(GQA.hidden(), -1, 1).toArray();
        exact.step(x, new int[] {0});
        fp8.step(x, new int[] {0});
        double[] k = exact.kCache(0);
        double[] v = exact.vCache(0);
        double[] k8 = fp8.kCache(0);
        double[] v8 = fp8.vCache(0);
        int rounded = 0;
        for (int i = 0; i < k.length; i++) {
            assertThat(k8[i]).isEqualTo(kv.roundKey(k[i]));
            assertThat(v8[i]).isEqualTo(kv.roundValue(v[i]));
            // E4M3 keeps 4 significant bits: at most half a step, 2^-4 of the value, off (above the subnormals)
            if (Math.abs(k[i]) > 0.25 * Math.scalb(1.0, -6)) {
                assertThat(Math.abs(k8[i] - k[i])).isLessThanOrEqualTo(Math.abs(k[i]) / 16);
            }
            rounded += k8[i] != k[i] ? 1 : 0;
        }
        assertThat(rounded).as("keys the rounding moved").isGreaterThan(k.length / 20);
    }

    private static double maxAbsDifference(double[] a, double[] b) {
        double max = 0;
        for (int i = 0; i < a.length; i++) {
            max = Math.max(max, Math.abs(a[i] - b[i]));
        }
        return max;
    }
}
