package dev.roofline.nvml;

import dev.roofline.core.energy.EnergySource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class PowerTrackerTest {

    /** A GPU drawing a constant power, with or without an energy counter; counts how often each is read. */
    static final class FakeGpu implements PowerSource {
        final double watts;
        final boolean counter;
        final int failAfter;
        final AtomicInteger samples = new AtomicInteger();
        final AtomicInteger energyReads = new AtomicInteger();
        final AtomicLong energyMj = new AtomicLong(5_000_000);

        FakeGpu(double watts, boolean counter, int failAfter) {
            this.watts = watts;
            this.counter = counter;
            this.failAfter = failAfter;
        }

        @Override
        public PowerSample sample(long nowNanos) {
            if (samples.incrementAndGet() > failAfter) {
                throw new IllegalStateException("GPU fell off the bus");
            }
            return new PowerSample(nowNanos, watts, 1980, 0);
        }

        @Override
        public OptionalLong totalEnergyMillijoules() {
            energyReads.incrementAndGet();
            return counter ? OptionalLong.of(energyMj.getAndAdd(1234)) : OptionalLong.empty();
        }
    }

    private static void waitForSamples(PowerTracker t, int n) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (t.sampleCount() < n && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
    }

    @Test
    void constantPowerIntegratesToPowerTimesDuration() throws InterruptedException {
        FakeGpu gpu = new FakeGpu(250, false, Integer.MAX_VALUE);
        PowerTracker t = PowerTracker.start(gpu, Duration.ofMillis(2));
        waitForSamples(t, 5);
        PowerSummary s = t.stop();
        assertThat(s.sampleCount()).isGreaterThanOrEqualTo(5);
        assertThat(s.energySource()).isEqualTo(EnergySource.INTEGRATED);
        // a constant 250 W integrates to exactly 250 W x duration, whatever the sample times were
        assertThat(s.energyJoules()).isCloseTo(250 * s.durationSeconds(), within(1e-9));
        assertThat(s.averageWatts()).isCloseTo(250, within(1e-9));
        assertThat(s.error()).isEmpty();
        assertThat(t.isRunning()).isFalse();
    }

    @Test
    void aSampleStampedAfterTheEndIsLeftOutOfTheSummary() throws InterruptedException {
        // the first 3 samples are stamped when taken, every later one 10 s in the future: as if taken after stop()
        // read its clock. The summary must integrate 250 W over its own window only.
        AtomicInteger taken = new AtomicInteger();
        PowerSource late = new PowerSource() {
            @Override
            public PowerSample sample(long nowNanos) {
                return new PowerSample(
                        taken.incrementAndGet() <= 3 ? nowNanos : nowNanos + 10_000_000_000L, 250, 1980, 0);
            }

            @Override
            public OptionalLong totalEnergyMillijoules() {
                return OptionalLong.empty();
            }
        };
        PowerTracker t = PowerTracker.start(late, Duration.ofMillis(2));
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (taken.get() < 5 && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        PowerSummary s = t.stop();
        assertThat(t.sampleCount()).isGreaterThanOrEqualTo(5);
        assertThat(s.sampleCount()).isEqualTo(3);
        assertThat(s.energyJoules()).isCloseTo(250 * s.durationSeconds(), within(1e-9));
    }

    @Test
    void theEnergyCounterIsReadOnlyAtStartAndStop() throws InterruptedException {
        FakeGpu gpu = new FakeGpu(300, true, Integer.MAX_VALUE);
        PowerTracker t = PowerTracker.start(gpu, Duration.ofMillis(1));
        waitForSamples(t, 20);
        PowerSummary s = t.stop();
        assertThat(gpu.energyReads.get()).isEqualTo(2);
        assertThat(s.energySource()).isEqualTo(EnergySource.COUNTER);
        assertThat(s.energyJoules()).isEqualTo(1.234); // the fake counter advances 1234 mJ per read
    }

    @Test
    void stopAndCloseAreIdempotent() {
        PowerTracker t = PowerTracker.start(new FakeGpu(100, false, Integer.MAX_VALUE));
        PowerSummary first = t.stop();
        t.close();
        t.close();
        assertThat(t.stop()).isSameAs(first);
        assertThat(t.snapshot()).isSameAs(first);
    }

    @Test
    void aFailingSourceStopsSamplingAndIsReported() throws InterruptedException {
        FakeGpu gpu = new FakeGpu(100, false, 3);
        PowerTracker t = PowerTracker.start(gpu, Duration.ofMillis(1));
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (t.isRunning() && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        PowerSummary s = t.stop();
        assertThat(s.sampleCount()).isEqualTo(3);
        assertThat(s.error())
                .hasValueSatisfying(
                        e -> assertThat(e).contains("after 3 samples").contains("GPU fell off the bus"));
    }

    /** A source whose readings block, from the {@code blockFrom}-th on, until the test releases them. */
    static final class StuckGpu implements PowerSource {
        final int sampleBlockFrom;
        final int energyBlockFrom;
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger samples = new AtomicInteger();
        final AtomicInteger energyReads = new AtomicInteger();

        StuckGpu(int sampleBlockFrom, int energyBlockFrom) {
            this.sampleBlockFrom = sampleBlockFrom;
            this.energyBlockFrom = energyBlockFrom;
        }

        @Override
        public PowerSample sample(long nowNanos) {
            if (samples.incrementAndGet() >= sampleBlockFrom) {
                awaitRelease();
            }
            return new PowerSample(nowNanos, 150, 1980, 0);
        }

        @Override
        public OptionalLong totalEnergyMillijoules() {
            if (energyReads.incrementAndGet() >= energyBlockFrom) {
                awaitRelease();
            }
            return OptionalLong.of(1_000_000);
        }

        private void awaitRelease() {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void aSampleThatNeverReturnsDoesNotHangStopAndIsReported() throws InterruptedException {
        StuckGpu gpu = new StuckGpu(4, Integer.MAX_VALUE); // samples 1-3 return, the 4th blocks
        try {
            PowerTracker t = PowerTracker.start(gpu, Duration.ofMillis(1), Duration.ofMillis(200));
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (gpu.samples.get() < 4 && System.nanoTime() < deadline) {
                Thread.sleep(2);
            }
            PowerSummary s = assertTimeoutPreemptively(Duration.ofSeconds(5), t::stop);
            assertThat(s.sampleCount()).isEqualTo(3);
            assertThat(s.energySource()).isEqualTo(EnergySource.COUNTER); // the counter itself still answers
            assertThat(s.error())
                    .hasValue("power sampler stuck: a reading did not return within 200 ms of stop; the summary"
                            + " covers the 3 samples taken before it");
            assertThat(assertTimeoutPreemptively(Duration.ofSeconds(1), () -> {
                        t.close();
                        return t.stop();
                    }))
                    .isSameAs(s);
        } finally {
            gpu.release.countDown();
        }
    }

    @Test
    void anEnergyReadThatNeverReturnsFallsBackToTheIntegral() throws InterruptedException {
        StuckGpu gpu = new StuckGpu(Integer.MAX_VALUE, 2); // the start read returns, the stop read blocks
        try {
            PowerTracker t = PowerTracker.start(gpu, Duration.ofMillis(1), Duration.ofMillis(200));
            waitForSamples(t, 3);
            PowerSummary s = assertTimeoutPreemptively(Duration.ofSeconds(5), t::stop);
            assertThat(s.energySource()).isEqualTo(EnergySource.INTEGRATED);
            // a constant 150 W integrates to 150 W x duration
            assertThat(s.energyJoules()).isCloseTo(150 * s.durationSeconds(), within(1e-9));
            assertThat(s.error())
                    .hasValue("energy counter read at stop did not return within 200 ms: energy integrated from the"
                            + " samples");
        } finally {
            gpu.release.countDown();
        }
    }

    @Test
    void aCounterResetDuringTrackingFallsBackToTheIntegral() throws InterruptedException {
        FakeGpu gpu = new FakeGpu(250, true, Integer.MAX_VALUE);
        PowerTracker t = PowerTracker.start(gpu, Duration.ofMillis(1));
        waitForSamples(t, 5);
        gpu.energyMj.set(0); // the driver reset the counter: start read 5,000,000 mJ, stop read 0 mJ
        PowerSummary s = t.stop();
        assertThat(s.energySource()).isEqualTo(EnergySource.INTEGRATED);
        assertThat(s.energyJoules())
                .isCloseTo(250 * s.durationSeconds(), within(1e-9))
                .isPositive();
        assertThat(s.error()).hasValueSatisfying(e -> assertThat(e).contains("went back from 5000000 mJ to 0 mJ"));
    }

    @Test
    void aFailingEnergyReadIsReportedAndFallsBackToTheIntegral() {
        PowerSource noCounter = new PowerSource() {
            @Override
            public PowerSample sample(long nowNanos) {
                return new PowerSample(nowNanos, 80, 1980, 0);
            }

            @Override
            public OptionalLong totalEnergyMillijoules() {
                throw new IllegalStateException("NVML_ERROR_UNKNOWN");
            }
        };
        PowerSummary s = PowerTracker.start(noCounter).stop();
        assertThat(s.energySource()).isNotEqualTo(EnergySource.COUNTER);
        assertThat(s.error())
                .hasValue("energy counter read at start failed: java.lang.IllegalStateException: NVML_ERROR_UNKNOWN:"
                        + " energy integrated from the samples");
    }

    @Test
    void snapshotsCanBeTakenFromOtherThreadsWhileSampling() throws Exception {
        PowerTracker t = PowerTracker.start(new FakeGpu(200, false, Integer.MAX_VALUE), Duration.ofMillis(1));
        Thread[] readers = new Thread[4];
        AtomicInteger failures = new AtomicInteger();
        for (int i = 0; i < readers.length; i++) {
            readers[i] = Thread.ofPlatform().start(() -> {
                for (int j = 0; j < 200; j++) {
                    try {
                        PowerSummary s = t.snapshot();
                        if (s.sampleCount() > 0 && Math.abs(s.averageWatts() - 200) > 1e-9) {
                            failures.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        failures.incrementAndGet();
                    }
                }
            });
        }
        for (Thread r : readers) {
            r.join();
        }
        t.close();
        assertThat(failures.get()).isZero();
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> PowerTracker.start(null)).hasMessageContaining("source must not be null");
        FakeGpu gpu = new FakeGpu(1, false, 1);
        assertThatThrownBy(() -> PowerTracker.start(gpu, Duration.ZERO))
                .hasMessageContaining("interval must be between 1 ms and 10 s, got PT0S");
        assertThatThrownBy(() -> PowerTracker.start(gpu, Duration.ofMinutes(1))).hasMessageContaining("PT1M");
    }
}
