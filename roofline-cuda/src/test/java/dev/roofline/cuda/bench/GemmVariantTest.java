package dev.roofline.cuda.bench;

import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GemmVariantTest {

    @Test
    void fastAccumulationIsLabelledAndAskedOfCublasLt() {
        GemmVariant v = new GemmVariant(Precision.FP8_E4M3, true);
        Gemm g = Sweep.gemmFor(Gemm.of(8192, 8192, 8192), Precision.FP8_E4M3);
        assertThat(v.label(g)).isEqualTo("FP8 E4M3 -> FP16 fast accum");
        assertThat(v.options(32).fastAccumulation()).isTrue();
        assertThat(v.options(32).algorithms()).isEqualTo(32);
        assertThat(GemmVariant.of(Precision.FP8_E4M3).options(32).fastAccumulation())
                .isFalse();
    }

    @Test
    void fastAccumulationOutsideFp8IsRefused() {
        assertThatThrownBy(() -> new GemmVariant(Precision.BF16, true))
                .hasMessageContaining("FP8 only")
                .hasMessageContaining("BF16");
    }

    @Test
    void defaultsTimeBackToBackRegionsAndIsolatedKeepsTheFirstRunsMethod() {
        assertThat(BenchmarkOptions.defaults().backToBack()).isTrue();
        assertThat(BenchmarkOptions.defaults().launchesPerSample()).isEqualTo(10);
        assertThat(BenchmarkOptions.isolated().backToBack()).isFalse();
        assertThat(BenchmarkOptions.isolated().launchesPerSample()).isEqualTo(1);
        assertThat(BenchmarkOptions.defaults().withGraph(20).backToBack()).isTrue();
        assertThatThrownBy(() -> BenchmarkOptions.defaults().withLaunchesPerSample(0))
                .hasMessageContaining("launchesPerSample >= 1");
    }
}
