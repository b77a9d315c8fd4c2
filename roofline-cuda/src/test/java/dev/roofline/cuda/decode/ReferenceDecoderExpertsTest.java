package dev.roofline.cuda.decode;

import dev.roofline.cuda.decode.ReferenceDecoder.Config;
import dev.roofline.cuda.decode.ReferenceDecoder.Experts;
import dev.roofline.cuda.decode.ReferenceDecoder.Layer;
import dev.roofline.cuda.decode.ReferenceDecoder.Weights;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The reference's mixture of experts against its dense model: experts that are copies of the dense MLP give the dense
 * logits whatever the router picks (the weights sum to 1), and a router of zeros ties every expert, so each token takes
 * experts 0 and 1 with weight 1/2 each and never the others.
 */
class ReferenceDecoderExpertsTest {
    private static final Config DENSE = new Config(16, 4, 2, 4, 8, 10, 1e-5, RopeFrequencies.of(4, 10_000));
    private static final Config MOE = new Config(16, 4, 2, 4, 8, 10, 1e-5, RopeFrequencies.of(4, 10_000), 4, 2);
    private static final int LAYERS = 2;
    private static final int BATCH = 3;
    private static final int STEPS = 4;

    @Test
    void expertsThatAreCopiesOfTheDenseMlpGiveTheDenseLogits() {
        Weights dense = Weights.random(DENSE, LAYERS, 3);
        SplittableRandom rnd = new SplittableRandom(4);
        Weights moe =
                experts(dense, l -> rnd.doubles(4L * DENSE.hidden(), -1, 1).toArray(), 4);
        compareSteps(dense, moe);
    }

    @Test
    void aRouterOfZerosTakesExpertsZeroAndOneAtOneHalfEach() {
        Weights dense = Weights.random(DENSE, LAYERS, 3);
        // experts 0 and 1 copy the dense MLP, 2 and 3 are other weights, which a tie never reaches
        Weights moe = experts(dense, l -> new double[4 * DENSE.hidden()], 2);
        ReferenceDecoder decoder = compareSteps(dense, moe);
        for (int l = 0; l < LAYERS; l++) {
            ExpertRouting.Routing r = decoder.routing(l);
            assertThat(r.ids()).containsExactly(0, 1, 0, 1, 0, 1);
            assertThat(r.weights()).containsOnly(0.5);
            assertThat(r.margin()).isZero();
        }
    }

    @Test
    void aLayerWithExpertsInADenseConfigIsNamed() {
        Weights moe = Weights.random(MOE, LAYERS, 1);
        assertThatThrownBy(() -> new ReferenceDecoder(DENSE, moe, 1, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("layers[0] has experts; the config is dense");
        assertThatThrownBy(() -> new ReferenceDecoder(MOE, moe, 1, 4).routing(0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("no step has run yet");
    }

    /** Steps both decoders on the same random inputs and returns the one with experts. */
    private static ReferenceDecoder compareSteps(Weights dense, Weights moe) {
        ReferenceDecoder d = new ReferenceDecoder(DENSE, dense, BATCH, STEPS);
        ReferenceDecoder m = new ReferenceDecoder(MOE, moe, BATCH, STEPS);
        SplittableRandom rnd = new SplittableRandom(11);
        for (int t = 0; t < STEPS; t++) {
            double[] x = rnd.doubles((long) BATCH * DENSE.hidden(), -1, 1).toArray();
            int[] positions = {t, t, t};
            double[] expected = d.step(x, positions);
            double[] got = m.step(x, positions);
            for (int i = 0; i < expected.length; i++) {
                assertThat(got[i]).as("logit %d of step %d", i, t).isCloseTo(expected[i], within(1e-12));
            }
        }
        return m;
    }

    /**
     * {@code dense} with each MLP turned into 4 experts: the first {@code copies} copy the dense MLP, the others are
     * its weights negated; the router of layer l is {@code router.apply(l)}.
     */
    private static Weights experts(Weights dense, java.util.function.IntFunction<double[]> router, int copies) {
        List<Layer> layers = new ArrayList<>();
        for (int l = 0; l < dense.layers().size(); l++) {
            Layer d = dense.layers().get(l);
            double[] gateUp = new double[4 * d.wgu().length];
            double[] down = new double[4 * d.wd().length];
            for (int e = 0; e < 4; e++) {
                double sign = e < copies ? 1 : -1;
                for (int i = 0; i < d.wgu().length; i++) {
                    gateUp[e * d.wgu().length + i] = sign * d.wgu()[i];
                }
                for (int i = 0; i < d.wd().length; i++) {
                    down[e * d.wd().length + i] = sign * d.wd()[i];
                }
            }
            layers.add(new Layer(
                    d.inputNorm(), d.wqkv(), d.wo(), d.postNorm(), new Experts(router.apply(l), gateUp, down)));
        }
        return new Weights(layers, dense.finalNorm(), dense.lmHead());
    }
}
