package dev.roofline.core.transformer;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.LatentAttention;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.SlidingWindow;
import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * A toy model with 6 layers, 4 of them attending to the last 100 tokens only: 8 query heads on 2 KV heads of 64, so
 * one layer's K and V take 2 · 2 · 64 = 256 elements, 512 FP16 bytes, per token. Every figure by hand.
 */
class SlidingWindowTest {

    static final long LAYER_KV = 2 * 2 * 64 * 2; // bytes per token per layer, FP16
    static final Model TOY = Model.newBuilder("toy")
            .hiddenSize(512)
            .layers(6)
            .vocabSize(1000)
            .attention(8, 2)
            .swiGlu(1024)
            .slidingWindow(100, 4)
            .build();

    static Map<String, Step> steps(Model m, Workload w) {
        return Operators.of(m, w).stream().collect(Collectors.toMap(Step::name, Function.identity()));
    }

    @Test
    void windowedLayersCacheAtMostTheirWindow() {
        assertThat(TOY.kvCacheBytesPerToken(Precision.FP16)).isEqualTo(6 * LAYER_KV);
        assertThat(TOY.kvCacheBytesPerTokenBeyondWindow(Precision.FP16)).isEqualTo(2 * LAYER_KV);
        assertThat(TOY.kvCacheBytes(Precision.FP16, 60)).isEqualTo(6 * 60 * LAYER_KV);
        assertThat(TOY.kvCacheBytes(Precision.FP16, 1000)).isEqualTo((2 * 1000 + 4 * 100) * LAYER_KV);
    }

    @Test
    void decodeAttendsToTheWindowInWindowedLayers() {
        Map<String, Step> st = steps(TOY, Workload.decode(3, 1000));
        Step full = st.get("attention");
        Step windowed = st.get("attention (window 100)");
        assertThat(full.count()).isEqualTo(2);
        assertThat(windowed.count()).isEqualTo(4);
        // per KV head of each of 3 sequences: 4 query rows of 64 in and out, then K and V of the keys attended
        assertThat(full.operator().bytes()).isEqualTo(3 * 2 * (2 * 4 * 64 * 2 + 1000 * LAYER_KV / 2));
        assertThat(windowed.operator().bytes()).isEqualTo(3 * 2 * (2 * 4 * 64 * 2 + 100 * LAYER_KV / 2));
        // 2 FLOPs per multiply-add over 64 + 64 per score, 5 for its softmax
        assertThat(windowed.operator().flops()).isEqualTo(3 * 2 * 4 * 100 * (2 * 128 + 5));
        // within the window every layer reads the whole context
        Map<String, Step> early = steps(TOY, Workload.decode(1, 60));
        assertThat(early.get("attention (window 100)").operator().bytes())
                .isEqualTo(early.get("attention").operator().bytes());
    }

    @Test
    void memoryFitFollowsTheWindowPerLayer() {
        long weights = 1_000_000, device = 1_000_000 + 10_000_000;
        MemoryFit m = new MemoryFit(weights, 0, 6 * LAYER_KV, 2 * LAYER_KV, 100, device, 0);
        // one sequence: 100 tokens at 6 layers' bytes, then 2 layers' bytes per token
        long beyond = (10_000_000 - 100 * 6 * LAYER_KV) / (2 * LAYER_KV);
        assertThat(m.maxContext(1)).isEqualTo(100 + beyond);
        assertThat(m.maxCachedTokens()).isEqualTo(100 + beyond);
        // 400 sequences: 25,000 bytes each, less than the window's 307,200
        assertThat(m.maxContext(400)).isEqualTo(25_000 / (6 * LAYER_KV));
        assertThat(m.maxBatch(1000)).isEqualTo(10_000_000 / ((100 * 6 + 900 * 2) * LAYER_KV));
        assertThat(m.maxBatch(50)).isEqualTo(10_000_000 / (50 * 6 * LAYER_KV));
        // every layer windowed: past the window nothing grows
        MemoryFit all = new MemoryFit(weights, 0, 6 * LAYER_KV, 0, 100, device, 0);
        assertThat(all.maxContext(1)).isEqualTo(Long.MAX_VALUE);
        // a model made for 2,000 positions: no longer context, however much memory is free
        MemoryFit limited = new MemoryFit(weights, 0, 6 * LAYER_KV, 2 * LAYER_KV, 100, device, 2000);
        assertThat(limited.maxContext(1)).isEqualTo(2000);
        assertThat(limited.maxContext(400)).isEqualTo(25_000 / (6 * LAYER_KV));
        assertThat(limited.maxCachedTokens()).isEqualTo(100 + beyond);
        assertThatThrownBy(() -> new MemoryFit(weights, 0, 6 * LAYER_KV, 2 * LAYER_KV, 0, device, 0))
                .hasMessageContaining("needs a window > 0");
    }

    @Test
    void transformerMemoryAndCrossoverUseTheWindows() {
        Transformer t = Transformer.of(TOY, Hardware.H100_SXM);
        MemoryFit m = t.memory(Workload.decode(2, 1000));
        assertThat(m.kvCacheBytes()).isEqualTo(2 * (2 * 1000 + 4 * 100) * LAYER_KV);
        assertThat(m.windowTokens()).isEqualTo(100);
        // crossover: weights read per sequence = 6 layers x window + 2 layers x (C - window)
        double perSequence = t.decodeWeightBytes(Workload.decode(1, 1));
        double expected = perSequence <= 100 * 6 * LAYER_KV
                ? perSequence / (6 * LAYER_KV)
                : 100 + (perSequence - 100 * 6 * LAYER_KV) / (2 * LAYER_KV);
        assertThat(t.kvCrossoverContext(Workload.decode(1, 1))).isCloseTo(expected, within(1e-6));
        assertThat(expected).isGreaterThan(100);
        Model allWindowed = Model.newBuilder("all")
                .hiddenSize(512)
                .layers(6)
                .vocabSize(1000)
                .attention(8, 2)
                .swiGlu(1024)
                .slidingWindow(100, 6)
                .build();
        assertThat(Transformer.of(allWindowed, Hardware.H100_SXM).kvCrossoverContext(Workload.decode(1, 1)))
                .isInfinite();
    }

    @Test
    void impossibleWindowsAreRefusedByName() {
        assertThatThrownBy(() -> new SlidingWindow(0, 3)).hasMessageContaining("got 0 tokens in 3 layers");
        assertThatThrownBy(() -> Model.newBuilder("x")
                        .hiddenSize(512)
                        .layers(6)
                        .vocabSize(1000)
                        .attention(8, 2)
                        .swiGlu(1024)
                        .slidingWindow(100, 7)
                        .build())
                .hasMessage("slidingWindow.layers must be <= layers, got 7 > 6");
        assertThatThrownBy(() -> Model.newBuilder("x")
                        .hiddenSize(7168)
                        .layers(6)
                        .vocabSize(1000)
                        .latentAttention(new LatentAttention(128, 1536, 512, 128, 64, 128))
                        .swiGlu(1024)
                        .slidingWindow(100, 2)
                        .build())
                .hasMessage("a sliding window needs multi-head attention, got latent attention");
    }
}
