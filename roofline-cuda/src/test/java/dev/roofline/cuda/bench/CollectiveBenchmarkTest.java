package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.parallel.Collective;
import dev.roofline.core.parallel.CollectiveFit;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The benchmark's sizes and arithmetic, without a GPU. */
class CollectiveBenchmarkTest {

    @Test
    void sizesDoubleAndAreWholeElementsPerRank() {
        // 4 ranks of float32: multiples of 16 bytes, at least 16
        assertThat(CollectiveBenchmark.sizes(8, 128, 4)).containsExactly(16L, 32L, 64L, 128L);
        assertThat(CollectiveBenchmark.sizes(8, 1L << 30, 2))
                .hasSize(28)
                .startsWith(8L)
                .endsWith(1L << 30);
        assertThat(CollectiveBenchmark.sizes(100, 400, 8)).containsExactly(96L, 192L, 384L);
    }

    @Test
    void bandwidthsAreNcclTestsFigures() {
        // 256 MiB all-reduce on 2 GPUs in 906.05 us: algbw 296.3 GB/s, busbw x 2(n-1)/n = the same on 2 ranks
        var m = new CollectiveBenchmark.Measurement(Collective.Op.ALL_REDUCE, 2, 268_435_456, 906.05e-6, 800e-6);
        assertThat(m.algorithmBytesPerSecond() / 1e9).isCloseTo(296.27, within(0.01));
        assertThat(m.busBytesPerSecond()).isEqualTo(m.algorithmBytesPerSecond());
        assertThat(m.errorPercent()).isCloseTo(-11.70, within(0.01));
        // all-gather on 8: busbw = algbw x 7/8
        var g = new CollectiveBenchmark.Measurement(Collective.Op.ALL_GATHER, 8, 1 << 20, 1e-5, 1e-5);
        assertThat(g.busBytesPerSecond()).isCloseTo(g.algorithmBytesPerSecond() * 7 / 8, within(1.0));
    }

    @Test
    void fitsAndRendersWhatWasMeasured() {
        // exact alpha-beta timings: 10 us + bus bytes at 200 GB/s, 2 ranks
        List<CollectiveBenchmark.Measurement> ms = CollectiveBenchmark.sizes(1024, 1 << 20, 2).stream()
                .map(b -> new CollectiveBenchmark.Measurement(
                        Collective.Op.ALL_GATHER, 2, b, 10e-6 + b / 2.0 / 200e9, 1e-5))
                .toList();
        var r = new CollectiveBenchmark.Results("2 GPUs", "2.28.9", Interconnect.NVLINK_4, true, ms);
        assertThat(r.fits()).singleElement().satisfies(f -> {
            assertThat(f.latencySeconds()).isCloseTo(10e-6, within(1e-12));
            assertThat(f.busBytesPerSecond()).isCloseTo(200e9, within(1e3));
            assertThat(f.launch()).isEqualTo(CollectiveFit.Launch.GRAPH);
        });
        assertThat(r.render(ReportFormat.TEXT))
                .startsWith("2 GPUs, NCCL 2.28.9, calls replayed from a CUDA graph; model on nvlink4\n")
                .contains("all_gather on 2 GPUs: latency 10.00 us, bus bandwidth 200.0 GB/s");
        assertThat(r.render(ReportFormat.CSV))
                .startsWith("op,ranks,bytes,time_us,algbw_gbps,busbw_gbps,predicted_us,error_pct\n");
    }

    @Test
    void anOperationWhoseTimeDoesNotGrowHasNoFit() {
        // all latency: 20 us at 1 KiB, 19 us at 2 KiB; the all-gather beside it grows and is fitted
        var r = new CollectiveBenchmark.Results(
                "2 GPUs",
                "2.28.9",
                Interconnect.NVLINK_4,
                false,
                List.of(
                        new CollectiveBenchmark.Measurement(Collective.Op.ALL_REDUCE, 2, 1024, 20e-6, 1e-5),
                        new CollectiveBenchmark.Measurement(Collective.Op.ALL_REDUCE, 2, 2048, 19e-6, 1e-5),
                        new CollectiveBenchmark.Measurement(Collective.Op.ALL_GATHER, 2, 1024, 10e-6, 1e-5),
                        new CollectiveBenchmark.Measurement(Collective.Op.ALL_GATHER, 2, 1 << 20, 20e-6, 1e-5)));
        assertThat(r.fits()).extracting(f -> f.op()).containsExactly(Collective.Op.ALL_GATHER);
        assertThat(r.fits().getFirst().launch()).isEqualTo(CollectiveFit.Launch.EAGER);
    }
}
