package dev.roofline.nvml;

import dev.roofline.core.energy.EnergySource;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.blas.CublasLt;
import dev.roofline.cuda.blas.Matmul;
import dev.roofline.cuda.blas.MatmulOptions;
import dev.roofline.cuda.blas.Operands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A cuBLASLt FP16 GEMM kept busy for three seconds of steady load under a {@link PowerTracker}: the hardware energy counter
 * must agree with the sampled power integrated over time, and the GPU must draw more than it does idle.
 */
@EnabledIf("gpuAndNvml")
class PowerTrackedMatmulIT {

    static boolean gpuAndNvml() {
        return Cuda.isAvailable() && NvmlMonitor.unavailableReason().isEmpty();
    }

    @Test
    void trackedGemmEnergyAgreesWithAveragePowerTimesTime() {
        int n = 8192;
        Device device = Cuda.device(0);
        Gemm g = Gemm.of(n, n, n);
        short[] data = new short[n * n];
        Random r = new Random(42);
        for (int i = 0; i < data.length; i++) {
            data[i] = Float.floatToFloat16((float) (r.nextDouble() * 2 - 1));
        }
        try (NvmlMonitor nvml = NvmlMonitor.open();
                CublasLt lt = CublasLt.create();
                Stream stream = Stream.create();
                Matmul mm = Matmul.plan(lt, g, device, MatmulOptions.defaults());
                DeviceBuffer a = DeviceBuffer.allocate(2L * n * n);
                DeviceBuffer b = DeviceBuffer.allocate(2L * n * n);
                DeviceBuffer c = DeviceBuffer.allocate(2L * n * n)) {
            a.copyFrom(data);
            b.copyFrom(data);
            NvmlDevice gpu = nvml.deviceByUuid(device.uuid());
            double idle = gpu.powerWatts().orElseThrow();
            Operands ops = Operands.of(b, a, c);
            mm.run(ops, stream); // warm up
            stream.synchronize();

            // NVML's power reading is smoothed over a window: load the GPU to a steady state first, then track
            // while the load continues, and stop tracking before the load stops
            runFor(mm, ops, stream, 1_500_000_000L);
            PowerTracker tracker = PowerTracker.start(gpu, Duration.ofMillis(10));
            int launches = runFor(mm, ops, stream, 3_000_000_000L);
            PowerSummary counter = tracker.stop();
            PowerSummary sampled = PowerSummary.of(
                    tracker.samples(),
                    tracker.startNanos(),
                    tracker.endNanos(),
                    OptionalLong.empty(),
                    OptionalLong.empty(),
                    Optional.empty());
            double flops = (double) g.flops() * launches;
            System.out.printf(
                    "PowerTrackedMatmulIT: %d launches of FP16 %d^3 in %.3f s; idle %.1f W; %s%n",
                    launches, n, counter.durationSeconds(), idle, counter);
            System.out.printf(
                    "PowerTrackedMatmulIT: counter %.1f J (avg %.1f W, peak %.1f W), sampled %.1f J (avg %.1f W); "
                            + "%.3f J per GEMM, %.1f GFLOPS/W, %.1f TFLOPS; min SM clock %d MHz; throttled %s %s%n",
                    counter.energyJoules(),
                    counter.averageWatts(),
                    counter.peakWatts(),
                    sampled.energyJoules(),
                    sampled.averageWatts(),
                    counter.joulesPer(launches),
                    counter.gflopsPerWatt(flops),
                    flops / counter.durationSeconds() / 1e12,
                    counter.minSmClockMHz(),
                    counter.throttled(),
                    counter.reasonsSeen());

            assertThat(counter.energySource()).isEqualTo(EnergySource.COUNTER);
            assertThat(counter.error()).isEmpty();
            assertThat(counter.sampleCount()).isGreaterThan(100);
            // two independent measurements of the same interval: within 10 %
            assertThat(counter.energyJoules()).isCloseTo(sampled.energyJoules(), within(0.10 * sampled.energyJoules()));
            // energy = average power x time, by definition of the summary, and the GEMMs raise the draw above idle
            assertThat(counter.energyJoules())
                    .isCloseTo(counter.averageWatts() * counter.durationSeconds(), within(1e-6));
            assertThat(counter.averageWatts()).isGreaterThan(idle * 1.5);
        }
    }

    /** Runs the product back to back for about {@code nanos}; returns the launches completed. */
    private static int runFor(Matmul mm, Operands ops, Stream stream, long nanos) {
        long start = System.nanoTime();
        int launches = 0;
        while (System.nanoTime() - start < nanos) {
            for (int i = 0; i < 20; i++) {
                mm.run(ops, stream);
            }
            stream.synchronize();
            launches += 20;
        }
        return launches;
    }
}
