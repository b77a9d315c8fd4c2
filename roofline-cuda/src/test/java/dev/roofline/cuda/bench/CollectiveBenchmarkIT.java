package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.parallel.Collective;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.nccl.Communicators;
import dev.roofline.cuda.nccl.Nccl;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The NCCL benchmark on this host's GPUs, small sizes: every size of every operation timed, fitted and rendered. */
@RequiresGpu
class CollectiveBenchmarkIT {

    @ParameterizedTest(name = "from a CUDA graph: {0}")
    @ValueSource(booleans = {true, false})
    void measuresEverySizeOfEveryOperation(boolean graph) {
        assumeTrue(Nccl.isAvailable(), () -> Nccl.unavailableReason().orElse(""));
        int n = Cuda.deviceCount();
        assumeTrue(n >= 2, "one GPU: nothing to measure between GPUs");
        List<CollectiveBenchmark.Measurement> seen = new ArrayList<>();
        CollectiveBenchmark.Results r;
        try (Communicators all = Communicators.ofAllDevices()) {
            r = CollectiveBenchmark.run(
                    all, CollectiveBenchmark.OPS, 1024, 64 << 20, 5, graph, Interconnect.NVLINK_4, seen::add);
        }
        int sizes = CollectiveBenchmark.sizes(1024, 64 << 20, n).size();
        assertThat(r.measurements()).hasSize(3 * sizes).isEqualTo(seen);
        assertThat(r.measurements()).allSatisfy(m -> {
            assertThat(m.ranks()).isEqualTo(n);
            // no collective between GPUs takes under a microsecond or beats 10 TB/s of bus bandwidth
            assertThat(m.seconds()).isBetween(1e-6, 1.0);
            assertThat(m.busBytesPerSecond()).isLessThan(10e12);
        });
        // up to 64 MiB the time grows with the bytes, so each operation has a bandwidth
        assertThat(r.fits()).extracting(f -> f.op()).containsExactlyElementsOf(CollectiveBenchmark.OPS);
        assertThat(r.render(ReportFormat.TEXT))
                .contains("NCCL " + Nccl.version())
                .contains("all_reduce on " + n);
        assertThat(r.render(ReportFormat.CSV).lines().count()).isEqualTo(1 + 3L * sizes);
        assertThat(r.measurements().stream().map(m -> m.op()).distinct())
                .containsExactly(Collective.Op.ALL_REDUCE, Collective.Op.ALL_GATHER, Collective.Op.REDUCE_SCATTER);
    }
}
