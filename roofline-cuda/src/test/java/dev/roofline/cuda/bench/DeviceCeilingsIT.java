package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.blas.CublasLt;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The copy line on a GPU: bandwidth below the datasheet, a small positive latency, and a third size on the line. */
@RequiresGpu
class DeviceCeilingsIT {
    private static final BenchmarkOptions TIMING = BenchmarkOptions.defaults().withGraph(20);

    @Test
    void theCopyLineFitsACopySizeItWasNotFittedOn() {
        Device d = Cuda.device(0);
        try (CublasLt lt = CublasLt.create();
                Stream s = Stream.create()) {
            // 256 MiB: captured in a graph, a 1 GiB copy runs at 2.7 TB/s instead of 4.3 on an H200
            DeviceCeilings c = DeviceCeilings.measure(lt, d, s, 256L << 20, 1024, List.of(), TIMING);
            long third = 96L << 20; // between the fitted 32 MiB and 256 MiB
            double measured = Benchmark.copy(s, third, TIMING.inputSets(d.l2Bytes(), 2 * third), TIMING)
                    .medianSeconds();
            double line = c.kernelLatencySeconds() + 2.0 * third / c.copyBytesPerSecond();
            System.out.printf(
                    "DeviceCeilingsIT %s: slope %.0f GB/s, latency %.2f us; 96 MiB copy %.2f us, line %.2f us (%s)%n",
                    d.name(),
                    c.copyBytesPerSecond() / 1e9,
                    c.kernelLatencySeconds() * 1e6,
                    measured * 1e6,
                    line * 1e6,
                    c.copyHow());
            // a copy reads and writes: it cannot move more than the datasheet's bandwidth
            assertThat(c.copyBytesPerSecond())
                    .isLessThanOrEqualTo(d.hardware().memoryBytesPerSecond())
                    .isGreaterThan(0.5 * d.hardware().memoryBytesPerSecond());
            // a launch in a graph plus DRAM ramp-up: microseconds, not nothing and not milliseconds
            assertThat(c.kernelLatencySeconds()).isGreaterThan(0).isLessThan(20e-6);
            // the intercept is what brings the line to the third copy: within half the latency of it, a band the same
            // slope without the intercept falls outside of (docs/design/gemv-kernels.md, "Timing against a copy")
            assertThat(measured).isCloseTo(line, within(0.5 * c.kernelLatencySeconds()));
            // and the predictions built from it carry the latency once per operator
            Hardware h = c.applyTo(d.hardware());
            assertThat(Roofline.on(h).predict(Gemm.gemv(4096, 4096)).latencySeconds())
                    .isEqualTo(c.kernelLatencySeconds());
        }
    }
}
