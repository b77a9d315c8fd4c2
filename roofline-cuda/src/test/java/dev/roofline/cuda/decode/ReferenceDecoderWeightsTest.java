package dev.roofline.cuda.decode;

import dev.roofline.cuda.decode.ReferenceDecoder.Config;
import dev.roofline.cuda.decode.ReferenceDecoder.Layer;
import dev.roofline.cuda.decode.ReferenceDecoder.Weights;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.DoubleStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The seeded random weights a GPU test uploads, and the config they are made for. */
class ReferenceDecoderWeightsTest {

    /** hidden 16, 4 heads on 2 KV heads of 4, intermediate 8, vocab 10. */
    private static final Config CONFIG = new Config(16, 4, 2, 4, 8, 10, 1e-5, new double[] {1, 0.1});

    @Test
    void randomWeightsHaveTheConfigsShapes() {
        Weights w = Weights.random(CONFIG, 3, 1);
        assertThat(w.layers()).hasSize(3);
        Layer layer = w.layers().get(2);
        assertThat(layer.inputNorm()).hasSize(16);
        assertThat(layer.wqkv()).hasSize((4 + 2 * 2) * 4 * 16);
        assertThat(layer.wo()).hasSize(16 * 4 * 4);
        assertThat(layer.postNorm()).hasSize(16);
        assertThat(layer.wgu()).hasSize(2 * 8 * 16);
        assertThat(layer.wd()).hasSize(16 * 8);
        assertThat(w.finalNorm()).hasSize(16);
        assertThat(w.lmHead()).hasSize(10 * 16);
    }

    @Test
    void theSameSeedGivesTheSameWeightsAndAnotherSeedOthers() {
        Weights a = Weights.random(CONFIG, 2, 42);
        Weights b = Weights.random(CONFIG, 2, 42);
        Weights c = Weights.random(CONFIG, 2, 43);
        for (int l = 0; l < 2; l++) {
            assertThat(a.layers().get(l).wqkv())
                    .containsExactly(b.layers().get(l).wqkv());
            assertThat(a.layers().get(l).wd()).containsExactly(b.layers().get(l).wd());
            assertThat(Arrays.equals(a.layers().get(l).wqkv(), c.layers().get(l).wqkv()))
                    .isFalse();
        }
        assertThat(a.lmHead()).containsExactly(b.lmHead());
        assertThat(Arrays.equals(a.lmHead(), c.lmHead())).isFalse();
    }

    @Test
    void linearWeightsSpanPlusOrMinusOneOverTheRootOfTheirFanIn() {
        Weights w = Weights.random(CONFIG, 1, 7);
        Layer layer = w.layers().get(0);
        assertSpans(layer.wqkv(), 1 / Math.sqrt(16)); // fan in: hidden
        assertSpans(layer.wo(), 1 / Math.sqrt(16)); // heads · headDim
        assertSpans(layer.wgu(), 1 / Math.sqrt(16)); // hidden
        assertSpans(layer.wd(), 1 / Math.sqrt(8)); // intermediate
        assertSpans(w.lmHead(), 1 / Math.sqrt(16)); // hidden
    }

    @Test
    void normWeightsLieNearOne() {
        Weights w = Weights.random(CONFIG, 1, 7);
        for (double[] norm :
                new double[][] {w.layers().get(0).inputNorm(), w.layers().get(0).postNorm(), w.finalNorm()}) {
            assertThat(DoubleStream.of(norm).boxed())
                    .allSatisfy(x -> assertThat(x).isBetween(0.9, 1.1));
            assertThat(DoubleStream.of(norm).distinct().count()).isGreaterThan(1);
        }
    }

    @Test
    void randomWeightsKeepLogitsOfOrderOne() {
        // lmHead rows uniform in +-1/sqrt(hidden) times a normed state of mean square ~1: each logit has variance
        // ~hidden · (1 / (3 hidden)) = 1/3, so their root mean square is near 0.58 however deep the stack
        Config config = new Config(256, 4, 2, 64, 512, 1000, 1e-5, RopeFrequencies.of(64, 500_000));
        ReferenceDecoder decoder = new ReferenceDecoder(config, Weights.random(config, 4, 3), 1, 4);
        SplittableRandom rnd = new SplittableRandom(5);
        for (int t = 0; t < 4; t++) {
            double[] logits = decoder.step(rnd.doubles(256, -1, 1).toArray(), new int[] {t});
            double rms = Math.sqrt(DoubleStream.of(logits).map(x -> x * x).sum() / logits.length);
            assertThat(rms).isCloseTo(0.58, within(0.15));
        }
    }

    @Test
    void theConfigKeepsItsOwnInverseFrequencies() {
        double[] invFreq = {1, 0.1};
        Config config = new Config(16, 4, 2, 4, 8, 10, 1e-5, invFreq);
        invFreq[0] = 5;
        config.invFreq()[1] = 5;
        assertThat(config.invFreq()).containsExactly(1, 0.1);
    }

    @Test
    void qkvWidthCountsQueryKeyAndValueHeads() {
        assertThat(CONFIG.qkvWidth()).isEqualTo((4 + 2 + 2) * 4);
    }

    /** Every value within {@code ±bound}, and the extremes near it: the spread is the bound, not less. */
    private static void assertSpans(double[] w, double bound) {
        double max = DoubleStream.of(w).max().orElseThrow();
        double min = DoubleStream.of(w).min().orElseThrow();
        assertThat(max).isLessThanOrEqualTo(bound).isGreaterThan(0.8 * bound);
        assertThat(min).isGreaterThanOrEqualTo(-bound).isLessThan(-0.8 * bound);
    }
}
