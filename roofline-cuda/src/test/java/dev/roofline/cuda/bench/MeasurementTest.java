package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.roofline.Roofline;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The derived figures from one hand-made GEMV measurement: median 13 us; roofline 10 us of memory + 2 us latency =
 * 12 us (datasheet 6.5 us); cuBLAS 39 us; 39 MB streamed against a 4 TB/s copy that moved them in 10.4 us.
 */
class MeasurementTest {
    static final Gemm NVFP4 = Gemm.gemv(8192, 8192).withWeights(Precision.NVFP4).named("NVFP4 gemv 8192x8192");

    /** A prediction of {@code memoryMicros} memory time, 1 us compute and {@code latencyMicros} latency. */
    static Prediction prediction(Gemm g, double memoryMicros, double latencyMicros) {
        Prediction p = Roofline.on(Hardware.H200).predict(g);
        return new Prediction(
                g,
                p.hardware(),
                p.computePath(),
                p.bytesPerSecond(),
                p.peakFlopsPerSecond(),
                memoryMicros * 1e-6,
                1e-6,
                latencyMicros * 1e-6);
    }

    static Measurement gemv() {
        Gemm fp16 = Gemm.gemv(8192, 8192);
        Measurement cublas = new Measurement("FP16 -> FP16", fp16, TimingStats.of(39), prediction(fp16, 30, 2));
        return new Measurement("NVFP4", NVFP4, TimingStats.of(12, 13, 14), prediction(NVFP4, 10, 2))
                .withDatasheet(prediction(NVFP4, 6.5, 0))
                .withBaseline(cublas)
                .withCopy(new CopyReference(39_000_000, 4e12, TimingStats.of(10.4)).withRead(TimingStats.of(9.75)));
    }

    @Test
    void errorIsAgainstThePredictionWithAndWithoutItsLatency() {
        assertThat(gemv().errorPercent()).isCloseTo(100.0 / 12, within(1e-9)); // 13 / 12 - 1
        assertThat(gemv().errorPercentWithoutLatency()).isCloseTo(30.0, within(1e-9)); // 13 / 10 - 1
        assertThat(gemv().datasheetErrorPercent().getAsDouble()).isCloseTo(100.0, within(1e-9)); // 13 / 6.5 - 1
    }

    @Test
    void speedupIsOverTheBaselineMeasuredAndAtTheRoofline() {
        assertThat(gemv().speedup().getAsDouble()).isCloseTo(3.0, within(1e-12)); // 39 / 13
        assertThat(gemv().speedupAtRoofline().getAsDouble()).isCloseTo(3.25, within(1e-12)); // 39 / 12
    }

    @Test
    void theCopyReferenceGivesBandwidthShareAndTimeAgainstTheCopy() {
        assertThat(gemv().streamedGigabytesPerSecond().getAsDouble())
                .isCloseTo(3000, within(1e-9)); // 39e6 / 13e-6 / 1e9
        assertThat(gemv().percentOfCopy().getAsDouble()).isCloseTo(75, within(1e-9)); // 3 TB/s of 4 TB/s
        assertThat(gemv().percentOfCopyAtRoofline().getAsDouble())
                .isCloseTo(81.25, within(1e-9)); // 39e6 / 12e-6 = 3.25 TB/s
        assertThat(gemv().timesSameBytesCopy().getAsDouble()).isCloseTo(1.25, within(1e-12)); // 13 / 10.4
    }

    @Test
    void withoutBaselineOrCopyThoseFiguresAreEmpty() {
        Measurement m = new Measurement("NVFP4", NVFP4, TimingStats.of(13), prediction(NVFP4, 10, 2));
        assertThat(m.speedup()).isEmpty();
        assertThat(m.speedupAtRoofline()).isEmpty();
        assertThat(m.percentOfCopy()).isEmpty();
        assertThat(m.percentOfCopyAtRoofline()).isEmpty();
        assertThat(m.timesSameBytesCopy()).isEmpty();
        assertThat(m.datasheetErrorPercent()).isEmpty();
        assertThat(m.withLabel("other").label()).isEqualTo("other");
    }

    @Test
    void aFailureNamesTheExceptionAndTheShapeIsMxNxK() {
        BenchmarkFailure f = BenchmarkFailure.of(
                "FP8 E4M3 -> FP16", Gemm.of(16, 8192, 4096), new IllegalStateException("no algorithm"));
        assertThat(f.reason()).isEqualTo("IllegalStateException: no algorithm");
        assertThat(f.shape()).isEqualTo("16x8192x4096");
        assertThat(Report.line(f)).endsWith("16x8192x4096 failed: IllegalStateException: no algorithm");
    }

    @Test
    void aCopyReferenceNeedsBytesAndABandwidth() {
        assertThatThrownBy(() -> new CopyReference(0, 4e12, TimingStats.of(1)))
                .hasMessageContaining("streamedBytes >= 1");
        assertThatThrownBy(() -> new CopyReference(1, 0, TimingStats.of(1)))
                .hasMessageContaining("copyBytesPerSecond > 0");
    }
}
