package dev.roofline.core.calibration;

import dev.roofline.core.hardware.Ceiling;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Source;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * A two-layer model small enough to price by hand: hidden 64, 2 heads of 32 (2 KV heads), SwiGLU 128, vocabulary 256,
 * FP16 throughout, decode at batch 1 over 16 cached tokens. The GPU's CUDA cores are slowed to 1 GFLOP/s so that the
 * vector operators are compute-bound and the max of the two terms is exercised both ways.
 */
class CalibratedPredictionTest {

    static final Model TINY = Model.newBuilder("tiny")
            .hiddenSize(64)
            .layers(2)
            .vocabSize(256)
            .attention(2, 2)
            .swiGlu(128)
            .build();

    static final Hardware GPU = Hardware.newBuilder("test-gpu")
            .memoryBandwidth(2e12, Source.user("test"))
            .ceiling(Precision.FP16, 1e15, Ceiling.Unit.TENSOR_CORE, Source.user("test"))
            .ceiling(Precision.FP32, 1e9, Ceiling.Unit.CUDA_CORE, Source.user("test"))
            .build();

    /** Copy 1 TB/s (half the datasheet's), launches 2 µs, 10 kernels a layer and 2 around them; no attention figure. */
    static final Calibration CALIBRATION = new Calibration(
            new Calibration.Provenance("Test GPU", LocalDate.of(2026, 11, 24), "by hand"),
            1e12,
            2e-6,
            10,
            2,
            Map.of(new OperatorClass.Gemv(Precision.FP16), 0.8, OperatorClass.ELEMENTWISE, 0.5));

    static final Workload DECODE = Workload.decode(1, 16);

    static CalibratedPrediction tiny() {
        return CALIBRATION.predict(Transformer.of(TINY, GPU), DECODE);
    }

    @Test
    void timeIsEachClassAtItsEfficiencyPlusTheLaunches() {
        // GEMVs at 0.8 TB/s, memory-bound (1 FLOP/B against a 1 PFLOP/s ceiling). Bytes = A + W + C, 2 B each:
        // q, k, v, o: 64 + 64x64 + 64 elements = 8448 B; gate, up: 64 + 128x64 + 128 = 16768 B; down: 16768 B;
        // lm_head: 64 + 256x64 + 256 = 33408 B. Two layers: 4 x 8448 x 2 + 3 x 16768 x 2 + 33408 = 201,600 B.
        double gemv = 201_600 / 0.8e12; // 252 ns
        // attention, no figure, so at 1 TB/s: per KV head q 64 B + out 64 B + K 16x32x2 + V 16x32x2 = 2176 B, 2 heads
        double attention = 2 * 2 * 2176 / 1e12; // 8.704 ns
        // elementwise at 0.5 TB/s, but FP32 at 1 GFLOP/s: the FLOP term wins for all but the embedding gather
        double embedding = (128 + 128) / 0.5e12; // 0 FLOPs: a row read and written, 0.512 ns
        double rmsnorm = 4 * (4 * 64 / 1e9); // 2 per layer, 4 FLOPs per element: 256 ns each
        double rope = 2 * (3 * (2 + 2) * 32 / 1e9); // 384 ns a layer
        double residual = 4 * (64 / 1e9); // 64 ns, 2 per layer
        double silu = 2 * (4 * 128 / 1e9); // 512 ns a layer
        double finalNorm = 4 * 64 / 1e9; // 256 ns
        double operators = gemv + attention + embedding + rmsnorm + rope + residual + silu + finalNorm;
        assertThat(operators).isCloseTo(3589.216e-9, within(1e-15));
        double launches = (10 * 2 + 2) * 2e-6; // 44 µs

        CalibratedPrediction p = tiny();
        assertThat(p.calibrated().timeSeconds()).isCloseTo(operators, within(1e-15));
        assertThat(p.launches()).isEqualTo(22);
        assertThat(p.launchSeconds()).isCloseTo(launches, within(1e-18));
        assertThat(p.timeSeconds()).isCloseTo(47.589216e-6, within(1e-15));
        assertThat(p.tokensPerSecond()).isCloseTo(1 / 47.589216e-6, within(1e-6));
    }

    @Test
    void aClassesFixedTimeIsAddedToEachOfItsOperatorsBeyondTheRoofline() {
        // CALIBRATION with 6 µs per attention and 1 µs per elementwise operator; GEMVs have none
        Calibration fixed = new Calibration(
                CALIBRATION.provenance(),
                1e12,
                2e-6,
                10,
                2,
                CALIBRATION.efficiencies(),
                Map.of(OperatorClass.ATTENTION, 6e-6, OperatorClass.ELEMENTWISE, 1e-6));
        CalibratedPrediction p = fixed.predict(Transformer.of(TINY, GPU), DECODE);
        // one attention a layer: 2 x 6 µs. Elementwise: embedding 1 + rmsnorm 4 + rope 2 + residual 4 + silu 2 +
        // final norm 1 = 14 operators x 1 µs. On top of the 3589.216 ns of operators above: 3.589216 + 12 + 14 µs
        assertThat(p.count(OperatorClass.ATTENTION)).isEqualTo(2);
        assertThat(p.count(OperatorClass.ELEMENTWISE)).isEqualTo(14);
        assertThat(p.count(new OperatorClass.Gemv(Precision.FP16))).isEqualTo(4 * 2 + 3 * 2 + 1);
        assertThat(p.count(new OperatorClass.Gemv(Precision.NVFP4))).isZero();
        assertThat(p.calibrated().timeSeconds()).isCloseTo(29.589216e-6, within(1e-15));
        // the launches are unchanged: 22 x 2 µs = 44 µs
        assertThat(p.launchSeconds()).isCloseTo(44e-6, within(1e-18));
        assertThat(p.timeSeconds()).isCloseTo(73.589216e-6, within(1e-15));
        // per operator, (fixed + max(bytes / bandwidth, flops / peak)) x count:
        // attention memory-bound, 2 x (6 µs + 4352 B at 1 TB/s); rmsnorm compute-bound, 4 x (1 µs + 256 ns)
        assertThat(p.operator("attention").timeSeconds()).isCloseTo(2 * (6e-6 + 4352 / 1e12), within(1e-18));
        assertThat(p.operator("attention").prediction().latencySeconds()).isEqualTo(6e-6);
        assertThat(p.operator("rmsnorm").timeSeconds()).isCloseTo(4 * (1e-6 + 256e-9), within(1e-18));
        assertThat(p.operator("q_proj").timeSeconds()).isCloseTo(2 * 8448 / 0.8e12, within(1e-18));
        // the base roofline has no fixed time
        assertThat(p.base().operator("attention").prediction().latencySeconds()).isZero();
        assertThat(p.base()).isEqualTo(tiny().base());
    }

    @Test
    void attentionsFixedTimeAddsOncePerLayerToALlamaDecodeStep() {
        Transformer t = Transformer.of(Models.LLAMA_3_8B, Hardware.H200);
        Workload w = Workload.decode(1, 1024);
        CalibratedPrediction without = CALIBRATION.predict(t, w);
        CalibratedPrediction with = new Calibration(
                        CALIBRATION.provenance(),
                        1e12,
                        2e-6,
                        10,
                        2,
                        CALIBRATION.efficiencies(),
                        Map.of(OperatorClass.ATTENTION, 6e-6))
                .predict(t, w);
        // 32 layers, one attention each: 32 x 6 µs = 192 µs more, all of it in the attention row
        assertThat(with.count(OperatorClass.ATTENTION)).isEqualTo(32);
        assertThat(with.timeSeconds() - without.timeSeconds()).isCloseTo(192e-6, within(1e-12));
        assertThat(with.operator("attention").timeSeconds()
                        - without.operator("attention").timeSeconds())
                .isCloseTo(192e-6, within(1e-12));
        assertThat(with.launchSeconds()).isEqualTo(without.launchSeconds());
    }

    @Test
    void eachOperatorIsTheLargerTermAtItsClassBandwidthTimesItsCount() {
        CalibratedPrediction p = tiny();
        assertThat(p.operator("q_proj").timeSeconds()).isCloseTo(2 * 8448 / 0.8e12, within(1e-18));
        assertThat(p.operator("q_proj").prediction().bytesPerSecond()).isEqualTo(0.8e12);
        assertThat(p.operator("lm_head").timeSeconds()).isCloseTo(33_408 / 0.8e12, within(1e-18));
        assertThat(p.operator("attention").timeSeconds()).isCloseTo(2 * 4352 / 1e12, within(1e-18));
        assertThat(p.operator("embedding").timeSeconds()).isCloseTo(256 / 0.5e12, within(1e-18));
        assertThat(p.operator("rmsnorm").timeSeconds()).isCloseTo(4 * 256e-9, within(1e-18));
        assertThat(p.share(p.operator("rmsnorm"))).isCloseTo(1024e-9 / 47.589216e-6, within(1e-12));
    }

    @Test
    void baseIsThePlainRooflineOnTheMeasuredCopyBandwidth() {
        CalibratedPrediction p = tiny();
        assertThat(p.base().hardware().memoryBytesPerSecond()).isEqualTo(1e12);
        assertThat(p.base().hardware().source(Hardware.Figure.MEMORY_BANDWIDTH))
                .isEqualTo(Source.measured("Test GPU", LocalDate.of(2026, 11, 24), "by hand"));
        assertThat(p.base().operator("q_proj").timeSeconds()).isCloseTo(2 * 8448 / 1e12, within(1e-18));
        assertThat(p.base().operators()).hasSameSizeAs(p.calibrated().operators());
    }

    @Test
    void classesWithoutAFigureAreListedAndPricedAtOne() {
        assertThat(tiny().uncalibratedClasses()).containsExactly(OperatorClass.ATTENTION);
        assertThat(CALIBRATION.efficiency(OperatorClass.ATTENTION)).isEqualTo(1.0);
        CalibratedPrediction nvfp4 =
                CALIBRATION.predict(Transformer.of(TINY, GPU), DECODE.withWeights(Precision.NVFP4));
        // the LM head stays at 16 bits (Workload.embeddings), so gemv FP16 is still calibrated
        assertThat(nvfp4.uncalibratedClasses())
                .extracting(OperatorClass::key)
                .containsExactly("attention", "gemv NVFP4");
    }

    @Test
    void errorPercentIsMeasuredOverPredictedLessOne() {
        CalibratedPrediction p = tiny();
        assertThat(p.errorPercent(2 * 47.589216e-6)).isCloseTo(100, within(1e-9));
        assertThat(p.errorPercent(47.589216e-6 * 0.9)).isCloseTo(-10, within(1e-9));
        assertThatThrownBy(() -> p.errorPercent(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("measuredSeconds must be a finite number > 0, got 0.0");
    }

    @Test
    void theTransformersComputeEfficiencyStaysItsBandwidthEfficiencyGives() {
        // FP32 at 2 GFLOP/s, both efficiencies 0.5: the FLOP term is back at 1 GFLOP/s, the bytes at the calibration's
        Hardware faster =
                GPU.withCeiling(new Ceiling(Precision.FP32, 2e9, Ceiling.Unit.CUDA_CORE, Source.user("test")));
        CalibratedPrediction p =
                CALIBRATION.predict(Transformer.of(TINY, Roofline.on(faster).withEfficiency(0.5, 0.5)), DECODE);
        assertThat(p.operator("q_proj").timeSeconds()).isCloseTo(2 * 8448 / 0.8e12, within(1e-18));
        assertThat(p.operator("rmsnorm").timeSeconds()).isCloseTo(4 * 256e-9, within(1e-18));
    }

    @Test
    void predictionsOfDifferentStepsAreRefused() {
        CalibratedPrediction p = tiny();
        assertThatThrownBy(() -> new CalibratedPrediction(
                        CALIBRATION, p.base(), Transformer.of(TINY, GPU).predict(DECODE.withContext(32))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("base and calibrated must price the same steps of the same model and workload");
        assertThatThrownBy(() -> CALIBRATION.predict(null, DECODE)).hasMessage("transformer must not be null");
        assertThatThrownBy(() -> CALIBRATION.predict(Transformer.of(TINY, GPU), null))
                .hasMessage("workload must not be null");
    }

    @Test
    void launchesCountTheEnginesKernelsPerLayerAndAroundThem() {
        assertThat(CALIBRATION.launches(TINY)).isEqualTo(22);
        assertThat(CALIBRATION.launches(Models.LLAMA_3_8B)).isEqualTo(10 * 32 + 2);
        assertThat(CALIBRATION.applyTo(GPU).memoryBytesPerSecond()).isEqualTo(1e12);
    }

    @Test
    void anAttentionOverHKvHeadsTakesTheClassMeasuredAtTheMostHeadsAtMostH() {
        // the tiny model has 2 KV heads: batch 8 is 16 heads
        Map<OperatorClass, Double> e = new java.util.HashMap<>(CALIBRATION.efficiencies());
        e.put(OperatorClass.ATTENTION, 0.5);
        e.put(new OperatorClass.Attention(16), 0.8);
        e.put(new OperatorClass.Attention(64), 1.0);
        Calibration heads = new Calibration(
                CALIBRATION.provenance(),
                1e12,
                2e-6,
                10,
                2,
                e,
                Map.of(OperatorClass.ATTENTION, 1e-6, new OperatorClass.Attention(64), 3e-6));
        java.util.function.LongFunction<dev.roofline.core.roofline.Attention> over = h ->
                dev.roofline.core.roofline.Attention.of("attention", h, 1, 16, 32, 32, Precision.FP16, Precision.FP16);
        assertThat(heads.classOf(over.apply(2))).isEqualTo(OperatorClass.ATTENTION);
        assertThat(heads.classOf(over.apply(15))).isEqualTo(OperatorClass.ATTENTION);
        assertThat(heads.classOf(over.apply(16))).isEqualTo(new OperatorClass.Attention(16));
        assertThat(heads.classOf(over.apply(63))).isEqualTo(new OperatorClass.Attention(16));
        assertThat(heads.classOf(over.apply(4000))).isEqualTo(new OperatorClass.Attention(64));
        assertThat(CALIBRATION.classOf(over.apply(4000))).isEqualTo(OperatorClass.ATTENTION);
        // h16 has no fixed time of its own: the plain attention's; h64 has its own
        assertThat(heads.fixedSecondsOf(new OperatorClass.Attention(16))).isEqualTo(1e-6);
        assertThat(heads.fixedSecondsOf(new OperatorClass.Attention(64))).isEqualTo(3e-6);

        // the tiny model at batch 8 over 16 tokens: attention reads Q, K, V and writes O, 2 layers. Per layer, 8
        // sequences x 2 KV heads x 16 tokens x 32 x 2 B for K and for V = 32768 B, Q and O 8 x 64 x 2 B each = 2048 B:
        // 34816 B at 0.8 TB/s = 43.52 ns, plus 1 us fixed; at batch 1, 4352 B at 0.5 TB/s = 8.704 ns plus 1 us
        Workload eight = Workload.decode(8, 16);
        assertThat(heads.predict(Transformer.of(TINY, GPU), eight)
                        .operator("attention")
                        .timeSeconds())
                .isCloseTo(2 * (34816 / 0.8e12 + 1e-6), within(1e-15));
        assertThat(heads.predict(Transformer.of(TINY, GPU), DECODE)
                        .operator("attention")
                        .timeSeconds())
                .isCloseTo(2 * (4352 / 0.5e12 + 1e-6), within(1e-15));
        assertThat(heads.predict(Transformer.of(TINY, GPU), eight).count(new OperatorClass.Attention(16)))
                .isEqualTo(2);
    }

    @Test
    void aProductOfMRowsTakesTheGemvClassMeasuredAtTheFewestRowsAtLeastM() {
        // FP16 GEMVs: 0.8 at any rows, 0.4 measured at 8 rows, 0.2 at 32 (none at 16)
        Map<OperatorClass, Double> e = new java.util.HashMap<>(CALIBRATION.efficiencies());
        e.put(new OperatorClass.Gemv(Precision.FP16, 8), 0.4);
        e.put(new OperatorClass.Gemv(Precision.FP16, 32), 0.2);
        Calibration rows = new Calibration(CALIBRATION.provenance(), 1e12, 2e-6, 10, 2, e);
        dev.roofline.core.roofline.Gemm q = dev.roofline.core.roofline.Gemm.gemv(64, 64);
        assertThat(rows.classOf(q)).isEqualTo(new OperatorClass.Gemv(Precision.FP16, 8));
        assertThat(rows.classOf(dev.roofline.core.roofline.Gemm.of(8, 64, 64)))
                .isEqualTo(new OperatorClass.Gemv(Precision.FP16, 8));
        assertThat(rows.classOf(dev.roofline.core.roofline.Gemm.of(9, 64, 64)))
                .isEqualTo(new OperatorClass.Gemv(Precision.FP16, 32));
        assertThat(rows.classOf(dev.roofline.core.roofline.Gemm.of(32, 64, 64)))
                .isEqualTo(new OperatorClass.Gemv(Precision.FP16, 32));
        // beyond the rows measured: the plain class of the product (a Gemm of 33 rows)
        assertThat(rows.classOf(dev.roofline.core.roofline.Gemm.of(33, 64, 64)))
                .isEqualTo(new OperatorClass.Gemm(Precision.FP16));
        // other weights keep their plain class
        assertThat(rows.classOf(q.withWeights(Precision.FP8_E4M3)))
                .isEqualTo(new OperatorClass.Gemv(Precision.FP8_E4M3));
        assertThat(CALIBRATION.classOf(q)).isEqualTo(new OperatorClass.Gemv(Precision.FP16));
        // a batch of matrices (unfused attention's products over each KV head) keeps its plain class
        assertThat(rows.classOf(dev.roofline.core.roofline.Gemm.batched(8, 4, 64, 64)))
                .isEqualTo(new OperatorClass.Gemv(Precision.FP16));
        // a fixed time given for the plain class serves its row classes, which have none of their own
        Calibration fixed = new Calibration(
                CALIBRATION.provenance(), 1e12, 2e-6, 10, 2, e, Map.of(new OperatorClass.Gemv(Precision.FP16), 1e-6));
        assertThat(fixed.fixedSecondsOf(new OperatorClass.Gemv(Precision.FP16, 8)))
                .isEqualTo(1e-6);
        assertThat(fixed.fixedSecondsOf(new OperatorClass.Gemv(Precision.FP8_E4M3, 8)))
                .isZero();

        // the tiny model at batch 1 prices its GEMVs at 0.4 now (the 8-row class), so their 252 ns become 504 ns
        CalibratedPrediction one = rows.predict(Transformer.of(TINY, GPU), DECODE);
        assertThat(one.calibrated().timeSeconds() - tiny().calibrated().timeSeconds())
                .isCloseTo(201_600 / 0.4e12 - 201_600 / 0.8e12, within(1e-15));
        assertThat(one.count(new OperatorClass.Gemv(Precision.FP16, 8))).isEqualTo(4 * 2 + 3 * 2 + 1);
        assertThat(one.uncalibratedClasses()).doesNotContain(new OperatorClass.Gemv(Precision.FP16, 8));
    }
}
