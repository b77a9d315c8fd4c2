package dev.roofline.cuda.bench;

import dev.roofline.core.energy.OperationEnergy;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.blas.CublasLt;
import dev.roofline.cuda.blas.MatmulOptions;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The harness on a GPU: back-to-back timing, candidate trials and the energy phase with a fake meter. */
@RequiresGpu
class GemmBenchmarkIT {
    private static final Gemm BF16_2048 = Sweep.gemmFor(Gemm.of(2048, 2048, 2048), Precision.BF16);

    @Test
    void energyPhaseRunsAtLeastItsGpuTimeInsideOneSessionOnThisDevice() {
        Device d = Cuda.device(0);
        FakePowerMeter.STARTED.clear();
        try (CublasLt lt = CublasLt.create();
                Stream s = Stream.create()) {
            Measurement m = GemmBenchmark.measure(
                    lt,
                    d,
                    s,
                    BF16_2048,
                    Roofline.on(d.hardware()),
                    BenchmarkOptions.defaults().withRepetitions(20),
                    MatmulOptions.defaults().withAlgorithms(8),
                    Optional.of(new FakePowerMeter()));
            OperationEnergy e = m.energy().orElseThrow();
            System.out.printf(
                    "GemmBenchmarkIT %s: median %.2f us, %.1f TFLOPS; energy phase %d launches, %.3f s GPU, %.3f s meter%n",
                    d.uuid(),
                    m.time().medianMicros(),
                    m.teraFlopsPerSecond(),
                    e.operations(),
                    e.gpuSeconds(),
                    e.reading().seconds());
            assertThat(FakePowerMeter.STARTED).containsExactly(d.uuid());
            assertThat(e.gpuSeconds()).isGreaterThanOrEqualTo(Benchmark.ENERGY_PHASE_SECONDS);
            assertThat(e.reading().seconds()).isGreaterThanOrEqualTo(e.gpuSeconds() * 0.99);
            // launches x the timed median is the GPU time, give or take the gaps between rounds and clock drift
            assertThat(e.operations() * m.time().medianSeconds())
                    .isCloseTo(e.gpuSeconds(), within(0.25 * e.gpuSeconds()));
            assertThat(m.joulesPerOperation().getAsDouble())
                    .isCloseTo(FakePowerMeter.WATTS * e.reading().seconds() / e.operations(), within(1e-9));
        }
    }

    @Test
    void backToBackSamplesAreNoSlowerThanIsolatedOnesAndNoFasterThanTheDatasheet() {
        Device d = Cuda.device(0);
        try (CublasLt lt = CublasLt.create();
                Stream s = Stream.create()) {
            Roofline r = Roofline.on(d.hardware());
            MatmulOptions first = MatmulOptions.defaults();
            double steady = GemmBenchmark.measure(lt, d, s, BF16_2048, r, BenchmarkOptions.defaults(), first)
                    .time()
                    .medianMicros();
            double isolated = GemmBenchmark.measure(lt, d, s, BF16_2048, r, BenchmarkOptions.isolated(), first)
                    .time()
                    .medianMicros();
            System.out.printf(
                    "GemmBenchmarkIT 2048^3 BF16, heuristic's first: back to back %.2f us, isolated %.2f us%n",
                    steady, isolated);
            // an isolated sample's start event fires before the host has enqueued the product, so it also counts the
            // enqueue (on the H200: 40.6 vs 25.5 us); back to back, the GPU never waits for the host
            assertThat(steady).isLessThanOrEqualTo(isolated * 1.05);
            // 2 x 2048^3 FLOPs at the datasheet's dense BF16 peak is the least time possible
            assertThat(steady * 1e-6)
                    .isGreaterThanOrEqualTo(BF16_2048.flops()
                            / d.hardware().ceiling(Precision.BF16).orElseThrow().flopsPerSecond());
        }
    }
}
