package dev.roofline.nvml;

import dev.roofline.core.energy.EnergySource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Readings through our bindings against nvidia-smi's, taken in the same run. Needs a GPU with NVML. */
@EnabledIf("nvmlAvailable")
class NvmlIT {

    static boolean nvmlAvailable() {
        var reason = NvmlMonitor.unavailableReason();
        reason.ifPresent(r -> System.out.println("NvmlIT skipped: " + r));
        return reason.isEmpty();
    }

    /** nvidia-smi's CSV row for GPU {@code index}: the fields asked for, in order. */
    static String[] smi(int index, String fields) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(
                        "nvidia-smi",
                        "-i",
                        Integer.toString(index),
                        "--query-gpu=" + fields,
                        "--format=csv,noheader,nounits")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("nvidia-smi: " + out).isZero();
        String[] cells = out.split(",\\s*");
        for (int i = 0; i < cells.length; i++) {
            cells[i] = cells[i].strip();
        }
        return cells;
    }

    @Test
    void identityAndLimitsMatchNvidiaSmi() throws Exception {
        try (NvmlMonitor nvml = NvmlMonitor.open()) {
            NvmlDevice gpu = nvml.device(0);
            String[] smi = smi(0, "name,uuid,enforced.power.limit,clocks.max.sm,clocks.max.mem,driver_version");
            System.out.printf(
                    "NvmlIT identity: ours name=%s uuid=%s limit=%.1f W maxSm=%s maxMem=%s driver=%s | smi %s%n",
                    gpu.name(),
                    gpu.uuid(),
                    gpu.powerLimitWatts().orElse(Double.NaN),
                    gpu.maxSmClockMHz(),
                    gpu.maxMemoryClockMHz(),
                    nvml.driverVersion(),
                    String.join(" | ", smi));
            assertThat(gpu.name()).isEqualTo(smi[0]);
            assertThat(gpu.uuid()).isEqualTo(smi[1]);
            assertThat(gpu.powerLimitWatts().orElseThrow()).isCloseTo(Double.parseDouble(smi[2]), within(0.5));
            assertThat(gpu.maxSmClockMHz().orElseThrow()).isEqualTo(Integer.parseInt(smi[3]));
            assertThat(gpu.maxMemoryClockMHz().orElseThrow()).isEqualTo(Integer.parseInt(smi[4]));
            assertThat(nvml.driverVersion()).isEqualTo(smi[5]);
        }
    }

    @Test
    void liveReadingsAgreeWithNvidiaSmiTakenAlongside() throws Exception {
        try (NvmlMonitor nvml = NvmlMonitor.open()) {
            NvmlDevice gpu = nvml.device(0);
            double before = gpu.powerWatts().orElseThrow();
            int tempBefore = gpu.temperatureCelsius().orElseThrow();
            String[] smi = smi(0, "power.draw,temperature.gpu,clocks.sm,utilization.gpu");
            double after = gpu.powerWatts().orElseThrow();
            int tempAfter = gpu.temperatureCelsius().orElseThrow();
            System.out.printf(
                    "NvmlIT live: ours power %.2f/%.2f W temp %d/%d C sm %s util %s | smi %s%n",
                    before, after, tempBefore, tempAfter, gpu.smClockMHz(), gpu.utilization(), String.join(" | ", smi));
            double smiPower = Double.parseDouble(smi[0]);
            // an idle GPU's draw moves a little between reads: the smi reading lies near ours taken around it
            assertThat(smiPower).isBetween(Math.min(before, after) - 15, Math.max(before, after) + 15);
            assertThat(Integer.parseInt(smi[1]))
                    .isBetween(Math.min(tempBefore, tempAfter) - 3, Math.max(tempBefore, tempAfter) + 3);
            assertThat(gpu.utilization().orElseThrow().gpuPercent()).isBetween(0, 100);
            assertThat(gpu.clockEventReasons()).isPresent();
        }
    }

    @Test
    void sessionsAreReferenceCounted() {
        NvmlMonitor a = NvmlMonitor.open();
        NvmlMonitor b = NvmlMonitor.open();
        NvmlDevice fromA = a.device(0);
        a.close();
        a.close(); // idempotent
        assertThat(b.device(0).powerWatts()).isPresent(); // NVML still initialized for b
        assertThatThrownBy(fromA::powerWatts)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already closed");
        b.close();
        try (NvmlMonitor c = NvmlMonitor.open()) { // a fresh init after the last shutdown
            assertThat(c.deviceCount()).isPositive();
        }
    }

    @Test
    void badDeviceIndexIsRejected() {
        try (NvmlMonitor nvml = NvmlMonitor.open()) {
            int n = nvml.deviceCount();
            assertThatThrownBy(() -> nvml.device(n))
                    .hasMessageContaining("device index must be in [0, " + n + "), got " + n);
        }
    }

    @Test
    void trackingAnIdleGpuUsesTheEnergyCounter() {
        try (NvmlMonitor nvml = NvmlMonitor.open()) {
            NvmlDevice gpu = nvml.device(0);
            awaitSteadyPower(gpu);
            PowerTracker t = PowerTracker.start(gpu, Duration.ofMillis(10));
            sleep(2000);
            PowerSummary s = t.stop();
            System.out.printf("NvmlIT idle 2 s: %s%n", s);
            assertThat(s.energySource()).isEqualTo(EnergySource.COUNTER);
            assertThat(s.sampleCount()).isGreaterThanOrEqualTo(20);
            assertThat(s.error()).isEmpty();
            // two independent measurements: the hardware counter, and sampled power integrated over time
            PowerSummary sampled = PowerSummary.of(
                    t.samples(),
                    t.startNanos(),
                    t.endNanos(),
                    java.util.OptionalLong.empty(),
                    java.util.OptionalLong.empty(),
                    java.util.Optional.empty());
            System.out.printf(
                    "NvmlIT idle: counter %.2f J, sampled %.2f J (avg %.1f W)%n",
                    s.energyJoules(), sampled.energyJoules(), sampled.averageWatts());
            assertThat(s.energyJoules()).isCloseTo(sampled.energyJoules(), within(0.15 * sampled.energyJoules() + 2));
        }
    }

    /**
     * Waits (at most 15 s) until four readings 250 ms apart each differ from the one before by at most 2 %. On Ampere
     * (except GA100) and newer, nvmlDeviceGetPowerUsage is a one-second trailing average (nvml.h): while the GPU
     * settles after an earlier test's load it lags the energy counter, and the two cannot be compared.
     */
    private static void awaitSteadyPower(NvmlDevice gpu) {
        long deadline = System.nanoTime() + 15_000_000_000L;
        double last = -1;
        int steady = 0;
        while (steady < 4 && System.nanoTime() < deadline) {
            double w = gpu.powerWatts().orElse(0);
            steady = last > 0 && Math.abs(w - last) <= 0.02 * last ? steady + 1 : 0;
            last = w;
            sleep(250);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
