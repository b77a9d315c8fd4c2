package dev.roofline.core.parallel;

import dev.roofline.core.parallel.CollectiveFit.Sample;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class CollectiveFitTest {

    @Test
    void recoversTheLatencyAndBandwidthOfExactTimings() {
        // 4-rank all-gather: bus bytes 3/4 of the buffer; 20 us + bus bytes at 300 GB/s
        List<Sample> samples = List.of(
                new Sample(8, 20e-6 + 6 / 300e9),
                new Sample(1 << 20, 20e-6 + 786_432 / 300e9),
                new Sample(1L << 30, 20e-6 + 805_306_368 / 300e9));
        CollectiveFit f =
                CollectiveFit.fit(Collective.Op.ALL_GATHER, 4, samples).orElseThrow();
        assertThat(f.latencySeconds()).isCloseTo(20e-6, within(1e-12));
        assertThat(f.busBytesPerSecond()).isCloseTo(300e9, within(1e3));
        assertThat(f.maxErrorPercent(samples)).isLessThan(1e-6);
    }

    @Test
    void aNegativeLatencyIsHeldAtZeroAndTheSlopeRefitted() {
        // the line through (1000 B, 1 us) and (2000 B, 3 us) crosses 0 bytes at -1 us; with alpha = 0 the weighted
        // slope is sum(w x t) / sum(w x^2), w = 1/t^2: (1e9 + 2000 * 3e-6 / 9e-12) / (1e18 + 4e6 / 9e-12)
        // = (5/3 e9) / (13/9 e18) = 15/13 e-9 s per byte, so beta = 13/15 GB/s
        CollectiveFit f = CollectiveFit.fit(
                        Collective.Op.ALL_REDUCE, 2, List.of(new Sample(1000, 1e-6), new Sample(2000, 3e-6)))
                .orElseThrow();
        assertThat(f.latencySeconds()).isZero();
        assertThat(f.busBytesPerSecond()).isCloseTo(13e9 / 15, within(1.0));
    }

    @Test
    void secondsCountBusBytes() {
        // 8-rank all-reduce of 1 MiB: bus bytes 2 * 7/8 * 1 MiB = 1,835,008; at 100 GB/s plus 10 us
        CollectiveFit f = new CollectiveFit(Collective.Op.ALL_REDUCE, 8, 10e-6, 100e9);
        assertThat(f.seconds(1 << 20)).isCloseTo(10e-6 + 1_835_008 / 100e9, within(1e-15));
    }

    @Test
    void oneSizeIsRefused() {
        assertThatThrownBy(() -> CollectiveFit.fit(
                        Collective.Op.ALL_REDUCE, 2, List.of(new Sample(64, 1e-5), new Sample(64, 2e-5))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least two sizes");
    }

    @Test
    void timesThatFallWithSizeHaveNoFit() {
        assertThat(CollectiveFit.fit(
                        Collective.Op.ALL_REDUCE, 2, List.of(new Sample(64, 2e-5), new Sample(1 << 20, 1e-5))))
                .isEmpty();
    }

    @Test
    void oneRankIsRefused() {
        assertThatThrownBy(() -> new CollectiveFit(Collective.Op.ALL_REDUCE, 1, 0, 1e9))
                .hasMessageContaining("ranks must be >= 2");
    }
}
