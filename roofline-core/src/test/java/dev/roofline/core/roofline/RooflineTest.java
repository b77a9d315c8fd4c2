package dev.roofline.core.roofline;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Source;
import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class RooflineTest {

    private static final double GB10_BW = 273e9; // B/s, DGX Spark datasheet

    @Test
    void fp16GemvOnGb10IsMemoryBoundAt123Micros() {
        Prediction p = Roofline.on(Hardware.GB10).predict(Gemm.gemv(4096, 4096));
        long bytes = (4096L * 4096 + 4096 + 4096) * 2; // weights + input vector + output vector, 2 B each
        assertThat(p.bytes()).isEqualTo(bytes).isEqualTo(33_570_816L);
        assertThat(p.flops()).isEqualTo(2L * 4096 * 4096);
        assertThat(p.timeMicros())
                .isCloseTo(bytes / GB10_BW * 1e6, within(1e-9))
                .isCloseTo(122.97, within(0.01));
        assertThat(p.bound()).isEqualTo(Bound.MEMORY);
        assertThat(p.flopsPerByte()).isCloseTo(33_554_432.0 / 33_570_816, within(1e-12));
    }

    @Test
    void atBandwidthRepricesOnlyTheMemoryTerm() {
        Prediction p = Roofline.on(Hardware.GB10).predict(Gemm.gemv(4096, 4096));
        Prediction half = p.atBandwidth(GB10_BW / 2);
        // 33,570,816 B at 136.5 GB/s = 245.94 µs; the 33,554,432 FLOPs still run at the FP16 ceiling
        assertThat(half.timeMicros()).isCloseTo(33_570_816 / 136.5e9 * 1e6, within(1e-9));
        assertThat(half.computeSeconds()).isEqualTo(p.computeSeconds());
        assertThat(half.bytesPerSecond()).isEqualTo(136.5e9);
        assertThat(half.computePath()).isEqualTo(p.computePath());
        assertThatThrownBy(() -> p.atBandwidth(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bytesPerSecond must be a finite number > 0, got 0.0");
    }

    @Test
    void nvfp4GemvOnGb10IsMemoryBoundAndCountsScales() {
        Gemm g = Gemm.gemv(4096, 4096).withWeights(Precision.NVFP4);
        Prediction p = Roofline.on(Hardware.GB10).predict(g);
        long weights = 4096L * 4096 / 2 + 4096L * 4096 / 16 + 4; // elements + E4M3 block scales + FP32 tensor scale
        long bytes = weights + 4096 * 2 + 4096 * 2; // FP16 activations and output
        assertThat(p.bytes()).isEqualTo(bytes);
        assertThat(p.timeSeconds()).isCloseTo(bytes / GB10_BW, within(1e-15));
        assertThat(p.bound()).isEqualTo(Bound.MEMORY);
        assertThat(p.computePath().executedAs()).isEqualTo(Precision.FP16); // W4A16: FP16 activations decide
        Prediction fp16 = Roofline.on(Hardware.GB10).predict(Gemm.gemv(4096, 4096));
        assertThat(p.speedupOver(fp16)).isCloseTo(33_570_816.0 / bytes, within(1e-12));
    }

    @Test
    void largeFp16GemmOnH100IsComputeBound() {
        Prediction p = Roofline.on(Hardware.H100_SXM).predict(Gemm.of(8192, 8192, 8192));
        double flops = 2.0 * 8192 * 8192 * 8192;
        double bytes = 3.0 * 8192 * 8192 * 2;
        assertThat(p.bound()).isEqualTo(Bound.COMPUTE);
        assertThat(p.timeSeconds()).isCloseTo(flops / 989.5e12, within(1e-12));
        assertThat(p.memorySeconds()).isCloseTo(bytes / 3.35e12, within(1e-12));
        assertThat(p.flopsPerByte()).isCloseTo(8192 / 3.0, within(1e-9));
        assertThat(p.ridgeFlopsPerByte()).isCloseTo(989.5e12 / 3.35e12, within(1e-9));
        assertThat(p.attainableFlopsPerSecond()).isEqualTo(989.5e12);
    }

    @Test
    void measuredKernelLatencyIsAddedOnceToTheLargerTerm() {
        // H200 datasheet 4.8 TB/s, plus 2 µs per kernel
        Hardware h = Hardware.H200.withKernelLatency(2e-6, Source.user("test"));
        Prediction p = Roofline.on(h).predict(Gemm.gemv(8192, 8192).withWeights(Precision.FP8_E4M3));
        long bytes = 8192L * 8192 + 8192 * 2 + 8192 * 2; // E4M3 weights (no scales modelled) + FP16 x and y
        assertThat(p.bytes()).isEqualTo(bytes);
        assertThat(p.latencySeconds()).isEqualTo(2e-6);
        assertThat(p.memorySeconds()).isCloseTo(bytes / 4.8e12, within(1e-15));
        // 67,141,632 B / 4.8 TB/s = 13.988 µs, + 2 µs
        assertThat(p.timeMicros())
                .isCloseTo(2 + bytes / 4.8e12 * 1e6, within(1e-9))
                .isCloseTo(15.99, within(0.01));
        assertThat(p.bound()).isEqualTo(Bound.MEMORY);
        // the roofline itself is unchanged by the latency term
        assertThat(p.attainableFlopsPerSecond()).isCloseTo(p.flopsPerByte() * 4.8e12, within(1.0));
        // a speedup between two kernels counts the latency on both sides
        Prediction fp16 = Roofline.on(h).predict(Gemm.gemv(8192, 8192));
        double fp16Bytes = (8192.0 * 8192 + 2 * 8192) * 2;
        assertThat(p.speedupOver(fp16)).isCloseTo((2e-6 + fp16Bytes / 4.8e12) / (2e-6 + bytes / 4.8e12), within(1e-12));
    }

    @Test
    void latencyIsAddedToTheComputeTermWhenThatIsLarger() {
        Hardware h = Hardware.H100_SXM.withKernelLatency(3e-6, Source.user("test"));
        Prediction p = Roofline.on(h).predict(Gemm.of(8192, 8192, 8192));
        assertThat(p.bound()).isEqualTo(Bound.COMPUTE);
        assertThat(p.timeSeconds()).isCloseTo(3e-6 + 2.0 * 8192 * 8192 * 8192 / 989.5e12, within(1e-12));
        assertThat(p.withoutLatency().timeSeconds()).isCloseTo(2.0 * 8192 * 8192 * 8192 / 989.5e12, within(1e-12));
        assertThat(p.withoutLatency().memorySeconds()).isEqualTo(p.memorySeconds());
    }

    @Test
    void withLatencyReplacesTheFixedCostAndKeepsBothTerms() {
        Prediction p = Roofline.on(Hardware.H200).predict(Gemm.gemv(4096, 4096));
        // (4096 x 4096 + 2 x 4096) x 2 B at 4.8 TB/s, then 6 µs on top
        double memory = (4096.0 * 4096 + 2 * 4096) * 2 / 4.8e12;
        Prediction slow = p.withLatency(6e-6);
        assertThat(slow.timeSeconds()).isCloseTo(6e-6 + memory, within(1e-15));
        assertThat(slow.memorySeconds()).isEqualTo(p.memorySeconds());
        assertThat(slow.computeSeconds()).isEqualTo(p.computeSeconds());
        assertThat(slow.bound()).isEqualTo(Bound.MEMORY);
        assertThat(slow.withoutLatency()).isEqualTo(p);
        assertThatThrownBy(() -> p.withLatency(-1e-6))
                .hasMessage("latencySeconds must be a finite number >= 0, got -1.0E-6");
        assertThatThrownBy(() -> p.withLatency(Double.NaN))
                .hasMessage("latencySeconds must be a finite number >= 0, got NaN");
        assertThatThrownBy(() -> p.withLatency(Double.POSITIVE_INFINITY))
                .hasMessage("latencySeconds must be a finite number >= 0, got Infinity");
    }

    @Test
    void datasheetPredictionsCarryNoLatency() {
        assertThat(Roofline.on(Hardware.H200).predict(Gemm.gemv(4096, 4096)).latencySeconds())
                .isZero();
    }

    @Test
    void attainableFollowsTheBandwidthSlopeBelowTheRidge() {
        Prediction p = Roofline.on(Hardware.H100_SXM).predict(Gemm.gemv(8192, 8192));
        assertThat(p.attainableFlopsPerSecond()).isCloseTo(p.flopsPerByte() * 3.35e12, within(1.0));
    }

    @Test
    void w4a4OnHopperIsPricedOnTheFp16Ceiling() {
        Gemm big = Gemm.of(16384, 16384, 16384).in(Precision.INT4);
        Prediction p = Roofline.on(Hardware.H100_SXM).predict(big);
        assertThat(p.computePath().nativePath()).isFalse();
        assertThat(p.computeSeconds()).isCloseTo(2.0 * 16384 * 16384 * 16384 / 989.5e12, within(1e-12));
        // bytes stay at 4-bit size: A and B INT4, C FP16
        assertThat(p.bytes()).isEqualTo(16384L * 16384 / 2 * 2 + 16384L * 16384 * 2);
    }

    @Test
    void fp8GemmOnH200UsesFp8Peak() {
        Prediction p =
                Roofline.on(Hardware.H200).predict(Gemm.of(8192, 8192, 8192).in(Precision.FP8_E4M3));
        assertThat(p.computePath().nativePath()).isTrue();
        assertThat(p.peakFlopsPerSecond()).isEqualTo(1979e12);
    }

    @Test
    void batchedGemmMultipliesEveryOperand() {
        Gemm g = Gemm.batched(32, 128, 128, 64);
        assertThat(g.flops()).isEqualTo(32L * 2 * 128 * 128 * 64);
        assertThat(g.bytes()).isEqualTo(32L * (128 * 64 + 128 * 64 + 128 * 128) * 2);
    }

    @Test
    void efficiencyFactorsScaleTheCeilings() {
        Prediction full = Roofline.on(Hardware.GB10).predict(Gemm.gemv(4096, 4096));
        Prediction derated = Roofline.on(Hardware.GB10).withEfficiency(0.8, 0.5).predict(Gemm.gemv(4096, 4096));
        assertThat(derated.timeSeconds()).isCloseTo(full.timeSeconds() / 0.8, within(1e-15));
        assertThat(derated.bytesPerSecond()).isEqualTo(273e9 * 0.8);
    }

    @Test
    void sparsityIsOptInOnly() {
        Gemm g = Gemm.of(8192, 8192, 8192);
        assertThat(Roofline.on(Hardware.H100_SXM).predict(g).peakFlopsPerSecond())
                .isEqualTo(989.5e12);
        Prediction sparse = Roofline.on(Hardware.H100_SXM).withSparsity().predict(g);
        assertThat(sparse.peakFlopsPerSecond()).isEqualTo(1979e12);
        assertThat(sparse.computePath().method()).contains("sparse");
    }

    @Test
    void elementwiseWorkUsesTheFp32VectorCeiling() {
        Elementwise add = Elementwise.streaming("residual add", 4096, 1, Precision.FP16, 2, 1);
        assertThat(add.bytes()).isEqualTo(3 * 4096 * 2);
        assertThat(add.flops()).isEqualTo(4096);
        Prediction p = Roofline.on(Hardware.H100_SXM).predict(add);
        assertThat(p.peakFlopsPerSecond()).isEqualTo(67e12);
        assertThat(p.bound()).isEqualTo(Bound.MEMORY);
        Elementwise sum = Elementwise.reduction("row sum", 1000, 10, Precision.FP32);
        assertThat(sum.bytes()).isEqualTo(1000 * 4 + 10 * 4);
        assertThat(Elementwise.of("gelu", 10, 8, 4).flops()).isEqualTo(80);
    }

    @Test
    void invalidShapesNameTheDimension() {
        assertThatThrownBy(() -> Gemm.of(0, 4096, 4096))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("M must be > 0, got 0");
        assertThatThrownBy(() -> Gemm.of(1, -5, 4096)).hasMessageContaining("N must be > 0, got -5");
        assertThatThrownBy(() -> Gemm.gemv(4096, 0)).hasMessageContaining("K must be > 0, got 0");
        assertThatThrownBy(() -> Gemm.batched(0, 1, 1, 1)).hasMessageContaining("batch must be > 0, got 0");
        assertThatThrownBy(() -> Gemm.of(1, 1, 1).withWeights(null)).hasMessageContaining("weights must not be null");
    }

    @Test
    void shapesWhoseBytesOverflowALongAreRejected() {
        // N*K = 2^61: 2^62 FLOPs and 2^62 FP16 weight bytes fit, 2^64 FP64 weight bytes do not
        Gemm fits = Gemm.of(1, 1L << 31, 1L << 30);
        assertThat(fits.bytes()).isGreaterThan(1L << 62);
        assertThatThrownBy(() -> fits.withWeights(Precision.FP64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("overflows a long");
        assertThatThrownBy(() -> Gemm.of(1L << 22, 1L << 22, 1L << 22))
                .hasMessageContaining("FLOPs of GEMM")
                .hasMessageContaining("overflows a long");
    }

    @Test
    void badEfficienciesAreRejected() {
        Roofline r = Roofline.on(Hardware.GB10);
        assertThatThrownBy(() -> r.withEfficiency(Double.NaN, 1))
                .hasMessageContaining("bandwidthEfficiency must be in (0, 1], got NaN");
        assertThatThrownBy(() -> r.withEfficiency(1, 1.5))
                .hasMessageContaining("computeEfficiency must be in (0, 1], got 1.5");
        assertThatThrownBy(() -> r.withEfficiency(0, 1)).hasMessageContaining("got 0.0");
        assertThatThrownBy(() -> r.predict(null)).hasMessageContaining("operator must not be null");
    }

    @Test
    void efficienciesThatLeaveLessThanAPhysicalFloorAreRefused() {
        Roofline r = Roofline.on(Hardware.GB10);
        // 273 GB/s · 1e-300 would price a 4096² FP16 GEMV at about 1.2e290 s
        assertThatThrownBy(() -> r.withEfficiency(1e-300, 1))
                .hasMessage("bandwidthEfficiency 1.0E-300 leaves GB10 2.73E-289 B/s of memory bandwidth, below the"
                        + " physical floor of 1 GB/s");
        // GB10's smallest peak is FP64: 31/64 TFLOPS = 484.375 GFLOPS; 1e-3 of it is 0.48 GFLOP/s
        assertThatThrownBy(() -> r.withEfficiency(1, 1e-3))
                .hasMessageStartingWith("computeEfficiency 0.001 leaves GB10's FP64 peak at 4.84375E8 FLOP/s");
        assertThatThrownBy(() -> r.withEfficiency(1, Double.MIN_VALUE))
                .hasMessageContaining("below the physical floor of 1 GFLOP/s");
        // 1 GB/s is the floor: 273 GB/s at 1/273 is accepted
        assertThat(r.withEfficiency(1 / 273.0, 1).bandwidthEfficiency()).isEqualTo(1 / 273.0);
    }

    @Test
    void badElementwiseArgumentsAreRejected() {
        assertThatThrownBy(() -> Elementwise.of("x", 0, 1, 2)).hasMessageContaining("elements must be > 0, got 0");
        assertThatThrownBy(() -> Elementwise.of("x", 10, Double.NaN, 2)).hasMessageContaining("flopsPerElement");
        assertThatThrownBy(() -> Elementwise.streaming("x", 10, 1, Precision.FP16, 0, 0))
                .hasMessageContaining("reads and writes");
        assertThatThrownBy(() -> Elementwise.reduction("x", 10, 20, Precision.FP16))
                .hasMessageContaining("outputs must be <= elements");
    }

    @Test
    void operatorSizesNeverWrapAround() {
        // 2 · 2^62 wrapped to -2^63 before the first checked product, and a negative count passed every later check
        assertThatThrownBy(() -> Gemm.batched(1L << 62, 1, 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FLOPs of GEMM")
                .hasMessageContaining("overflows a long");
        assertThatThrownBy(() -> Elementwise.reduction("r", 4, 1, null)).hasMessage("precision must not be null");
    }
}
