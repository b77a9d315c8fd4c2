package dev.roofline.cuda.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class CopyFitTest {

    @Test
    void slopeAndInterceptOfTwoCopies() {
        // 64e6 B moved in 17 µs, 2e9 B in 465 µs: slope 1.936e9 B / 448 µs = 4.3214e12 B/s,
        // intercept 17 µs - 64e6 / 4.3214e12 s = 17 - 14.8099 = 2.1901 µs
        CopyFit f = CopyFit.through(64_000_000L, 17e-6, 2_000_000_000L, 465e-6);
        assertThat(f.bytesPerSecond()).isCloseTo(4.321428571e12, within(1e3));
        assertThat(f.interceptSeconds()).isCloseTo(2.190083e-6, within(1e-12));
        assertThat(f.latencySeconds()).isEqualTo(f.interceptSeconds());
        // the line goes back through both points
        assertThat(f.seconds(64e6)).isCloseTo(17e-6, within(1e-15));
        assertThat(f.seconds(2e9)).isCloseTo(465e-6, within(1e-15));
    }

    @Test
    void aNegativeInterceptIsNoLatency() {
        // 1e6 B in 1 µs and 3e6 B in 2 µs: slope 2e12 B/s, intercept 1 - 0.5 = +0.5 µs; 1e6 B in 1 µs and 2e6 B in
        // 3 µs: slope 5e11 B/s, intercept 1 - 2 = -1 µs
        assertThat(CopyFit.through(1_000_000, 1e-6, 3_000_000, 2e-6).latencySeconds())
                .isCloseTo(0.5e-6, within(1e-15));
        CopyFit noisy = CopyFit.through(1_000_000, 1e-6, 2_000_000, 3e-6);
        assertThat(noisy.interceptSeconds()).isCloseTo(-1e-6, within(1e-15));
        assertThat(noisy.latencySeconds()).isZero();
    }

    @Test
    void timingsThatGiveNoBandwidthAreRejected() {
        assertThatThrownBy(() -> CopyFit.through(2_000, 1e-6, 1_000, 2e-6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 < smallBytes < largeBytes")
                .hasMessageContaining("2000 and 1000");
        assertThatThrownBy(() -> CopyFit.through(1_000, 2e-6, 2_000, 2e-6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("did not take longer");
        assertThatThrownBy(() -> CopyFit.through(1_000, 0, 2_000, 2e-6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("finite and > 0");
        assertThatThrownBy(() -> CopyFit.through(1_000, 1e-6, 2_000, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("finite and > 0");
    }
}
