package dev.roofline.cuda.decode;

import dev.roofline.cuda.decode.ReferenceDecoder.Config;
import dev.roofline.cuda.decode.ReferenceDecoder.Layer;
import dev.roofline.cuda.decode.ReferenceDecoder.Weights;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every refused input names itself and the value refused. */
class ReferenceDecoderMisuseTest {

    /** hidden 16, 4 heads on 2 KV heads of 4, intermediate 8, vocab 10. */
    private static final Config CONFIG = new Config(16, 4, 2, 4, 8, 10, 1e-5, new double[] {1, 0.1});

    private static final Weights WEIGHTS = Weights.random(CONFIG, 2, 1);

    private static Config config(int hidden, int heads, int kvHeads, int headDim, int inter, int vocab) {
        return new Config(hidden, heads, kvHeads, headDim, inter, vocab, 1e-5, new double[Math.max(headDim / 2, 0)]);
    }

    @Test
    void configRefusesNonPositiveSizes() {
        assertThatThrownBy(() -> config(0, 4, 2, 4, 8, 10)).hasMessage("hidden must be positive, got 0");
        assertThatThrownBy(() -> config(16, 0, 2, 4, 8, 10)).hasMessage("heads must be positive, got 0");
        assertThatThrownBy(() -> config(16, 4, -2, 4, 8, 10)).hasMessage("kvHeads must be positive, got -2");
        assertThatThrownBy(() -> config(16, 4, 2, 0, 8, 10)).hasMessage("headDim must be positive and even, got 0");
        assertThatThrownBy(() -> config(16, 4, 2, 4, 0, 10)).hasMessage("intermediate must be positive, got 0");
        assertThatThrownBy(() -> config(16, 4, 2, 4, 8, -1)).hasMessage("vocab must be positive, got -1");
    }

    @Test
    void configRefusesHeadsNotAMultipleOfKvHeads() {
        assertThatThrownBy(() -> config(16, 4, 3, 4, 8, 10)).hasMessage("heads (4) must be a multiple of kvHeads (3)");
    }

    @Test
    void configRefusesAnOddHeadDim() {
        assertThatThrownBy(() -> new Config(16, 4, 2, 5, 8, 10, 1e-5, new double[2]))
                .hasMessage("headDim must be positive and even, got 5");
    }

    @ParameterizedTest
    @ValueSource(doubles = {-1e-6, Double.NaN, Double.POSITIVE_INFINITY})
    void configRefusesANegativeOrNonFiniteEps(double eps) {
        assertThatThrownBy(() -> new Config(16, 4, 2, 4, 8, 10, eps, new double[2]))
                .hasMessage("eps must be finite and >= 0, got " + eps);
    }

    @Test
    void configRefusesInverseFrequenciesOfTheWrongLengthOrNotFinite() {
        assertThatThrownBy(() -> new Config(16, 4, 2, 4, 8, 10, 1e-5, null))
                .hasMessage("invFreq must hold headDim / 2 = 2 values, got null");
        assertThatThrownBy(() -> new Config(16, 4, 2, 4, 8, 10, 1e-5, new double[4]))
                .hasMessage("invFreq must hold headDim / 2 = 2 values, got 4");
        assertThatThrownBy(() -> new Config(16, 4, 2, 4, 8, 10, 1e-5, new double[] {1, Double.NaN}))
                .hasMessage("invFreq[1] must be finite, got NaN");
    }

    @ParameterizedTest
    @ValueSource(strings = {"inputNorm", "wqkv", "wo", "postNorm", "wgu", "wd"})
    void layerRefusesAMissingTensor(String tensor) {
        assertThatThrownBy(() -> with(WEIGHTS.layers().get(0), tensor, null)).hasMessage(tensor + " must not be null");
    }

    /** Expected lengths: qkv width (4 + 2·2)·4 = 32 rows of 16; wo 16 × 4·4; wgu 2·8 rows of 16; wd 16 × 8. */
    @ParameterizedTest
    @CsvSource({"inputNorm, 16", "wqkv, 512", "wo, 256", "postNorm, 16", "wgu, 256", "wd, 128"})
    void weightsOfTheWrongShapeNameTheLayerTheTensorAndItsLength(String tensor, int expected) {
        List<Layer> layers = new ArrayList<>(WEIGHTS.layers());
        layers.set(1, with(layers.get(1), tensor, new double[3]));
        Weights wrong = new Weights(layers, WEIGHTS.finalNorm(), WEIGHTS.lmHead());
        assertThatThrownBy(() -> new ReferenceDecoder(CONFIG, wrong, 1, 4))
                .hasMessage("layers[1]." + tensor + " must hold " + expected + " values, got 3");
    }

    @Test
    void weightsOfTheWrongFinalShapeNameTheTensor() {
        Weights norm = new Weights(WEIGHTS.layers(), new double[15], WEIGHTS.lmHead());
        assertThatThrownBy(() -> norm.requireFits(CONFIG)).hasMessage("finalNorm must hold 16 values, got 15");
        Weights head = new Weights(WEIGHTS.layers(), WEIGHTS.finalNorm(), new double[16]);
        assertThatThrownBy(() -> head.requireFits(CONFIG)).hasMessage("lmHead must hold 160 values, got 16");
    }

    @Test
    void weightsRefuseMissingParts() {
        double[] norm = WEIGHTS.finalNorm();
        double[] head = WEIGHTS.lmHead();
        assertThatThrownBy(() -> new Weights(null, norm, head)).hasMessage("layers must not be null");
        assertThatThrownBy(() -> new Weights(List.of(), norm, head)).hasMessage("layers must not be empty");
        assertThatThrownBy(() -> new Weights(Arrays.asList(WEIGHTS.layers().get(0), null), norm, head))
                .hasMessage("layers[1] must not be null");
        assertThatThrownBy(() -> new Weights(WEIGHTS.layers(), null, head)).hasMessage("finalNorm must not be null");
        assertThatThrownBy(() -> new Weights(WEIGHTS.layers(), norm, null)).hasMessage("lmHead must not be null");
    }

    @Test
    void randomWeightsRefuseBadArguments() {
        assertThatThrownBy(() -> Weights.random(null, 1, 0)).hasMessage("config must not be null");
        assertThatThrownBy(() -> Weights.random(CONFIG, 0, 0)).hasMessage("layerCount must be positive, got 0");
        // an lmHead of 100000 x 100000 values is beyond a Java array
        Config huge = new Config(100_000, 1, 1, 2, 1, 100_000, 1e-5, new double[1]);
        assertThatThrownBy(() -> Weights.random(huge, 1, 0))
                .hasMessage("a weight of 100000 x 100000 values does not fit a Java array");
    }

    @Test
    void decoderRefusesMissingPartsAndNonPositiveSizes() {
        assertThatThrownBy(() -> new ReferenceDecoder(null, WEIGHTS, 1, 4)).hasMessage("config must not be null");
        assertThatThrownBy(() -> new ReferenceDecoder(CONFIG, null, 1, 4)).hasMessage("weights must not be null");
        assertThatThrownBy(() -> new ReferenceDecoder(CONFIG, WEIGHTS, 0, 4))
                .hasMessage("batch must be positive, got 0");
        assertThatThrownBy(() -> new ReferenceDecoder(CONFIG, WEIGHTS, 1, -4))
                .hasMessage("capacity must be positive, got -4");
    }

    @Test
    void decoderRefusesCachesBeyondAJavaArray() {
        // 1000000 x 2 x 1000 x 4 = 8e9 values
        assertThatThrownBy(() -> new ReferenceDecoder(CONFIG, WEIGHTS, 1_000_000, 1_000))
                .hasMessage("a KV cache of batch 1000000 x kvHeads 2 x capacity 1000 x headDim 4 = 8000000000 values"
                        + " does not fit a Java array");
    }

    @Test
    void stepRefusesInputsOfTheWrongLength() {
        ReferenceDecoder decoder = new ReferenceDecoder(CONFIG, WEIGHTS, 2, 4);
        assertThatThrownBy(() -> decoder.step(null, new int[2])).hasMessage("x must not be null");
        assertThatThrownBy(() -> decoder.step(new double[31], new int[2])).hasMessage("x must hold 32 values, got 31");
        assertThatThrownBy(() -> decoder.step(new double[32], null)).hasMessage("positions must not be null");
        assertThatThrownBy(() -> decoder.step(new double[32], new int[1]))
                .hasMessage("positions must hold 2 values, got 1");
    }

    @Test
    void stepRefusesPositionsOutsideTheCacheAndLeavesTheCachesAlone() {
        ReferenceDecoder decoder = new ReferenceDecoder(CONFIG, WEIGHTS, 2, 4);
        double[] x = new double[32];
        Arrays.fill(x, 0.5);
        decoder.step(x, new int[] {0, 0});
        double[] keys = decoder.kCache(0);
        double[] values = decoder.vCache(1);
        assertThatThrownBy(() -> decoder.step(x, new int[] {1, -1}))
                .hasMessage("positions[1] must be in [0, 4), got -1");
        assertThatThrownBy(() -> decoder.step(x, new int[] {4, 1})).hasMessage("positions[0] must be in [0, 4), got 4");
        assertThat(decoder.kCache(0)).containsExactly(keys);
        assertThat(decoder.vCache(1)).containsExactly(values);
    }

    @Test
    void cachesRefuseALayerOutOfRange() {
        ReferenceDecoder decoder = new ReferenceDecoder(CONFIG, WEIGHTS, 1, 4);
        assertThatThrownBy(() -> decoder.kCache(2)).hasMessage("layer must be in [0, 2), got 2");
        assertThatThrownBy(() -> decoder.vCache(-1)).hasMessage("layer must be in [0, 2), got -1");
    }

    /** {@code layer} with {@code tensor} replaced by {@code value}. */
    private static Layer with(Layer layer, String tensor, double[] value) {
        return new Layer(
                tensor.equals("inputNorm") ? value : layer.inputNorm(),
                tensor.equals("wqkv") ? value : layer.wqkv(),
                tensor.equals("wo") ? value : layer.wo(),
                tensor.equals("postNorm") ? value : layer.postNorm(),
                tensor.equals("wgu") ? value : layer.wgu(),
                tensor.equals("wd") ? value : layer.wd());
    }
}
