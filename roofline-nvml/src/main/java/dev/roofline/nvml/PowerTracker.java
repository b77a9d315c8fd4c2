package dev.roofline.nvml;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Samples a GPU's power in the background while work runs.
 *
 * <pre>{@code
 * try (NvmlMonitor nvml = NvmlMonitor.open(); PowerTracker power = PowerTracker.start(nvml.device(0))) {
 *     runTheWork();
 *     PowerSummary s = power.stop();     // average/peak watts, joules, clocks, throttling
 * }
 * }</pre>
 *
 * The energy counter is read once at start and once at stop (a read costs milliseconds); the sampling loop reads
 * only power, SM clock and clock-event reasons. Thread-safe; {@link #close()} stops the sampler, also after errors.
 */
public final class PowerTracker implements AutoCloseable {
    /** The sampling interval used when none is given. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(10);

    private final PowerSource source;
    private final long intervalNanos;
    private final long startNanos;
    private volatile long endNanos = -1;
    private final OptionalLong energyStart;
    private final List<PowerSample> samples = new ArrayList<>();
    private final Thread sampler;
    private volatile boolean running = true;
    private volatile String error;
    private PowerSummary finalSummary;

    private PowerTracker(PowerSource source, Duration interval) {
        this.source = source;
        this.intervalNanos = interval.toNanos();
        this.energyStart = readEnergy(source);
        this.startNanos = System.nanoTime();
        this.sampler =
                Thread.ofPlatform().daemon().name("roofline-power-sampler").unstarted(this::sampleLoop);
        sampler.start();
    }

    public static PowerTracker start(PowerSource source) {
        return start(source, DEFAULT_INTERVAL);
    }

    /** @param interval time between samples, from 1 ms to 10 s */
    public static PowerTracker start(PowerSource source, Duration interval) {
        if (source == null) {
            throw new IllegalArgumentException("source must not be null");
        }
        if (interval == null
                || interval.compareTo(Duration.ofMillis(1)) < 0
                || interval.compareTo(Duration.ofSeconds(10)) > 0) {
            throw new IllegalArgumentException("interval must be between 1 ms and 10 s, got " + interval);
        }
        return new PowerTracker(source, interval);
    }

    private void sampleLoop() {
        long next = System.nanoTime();
        while (running) {
            try {
                PowerSample s = source.sample(System.nanoTime());
                synchronized (samples) {
                    samples.add(s);
                }
            } catch (RuntimeException e) {
                error = "sampling stopped after " + sampleCount() + " samples: " + e;
                return;
            }
            next += intervalNanos;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(this, wait);
            } else {
                next = System.nanoTime(); // fell behind: do not burst to catch up
            }
        }
    }

    /** {@link System#nanoTime()} when tracking started. */
    public long startNanos() {
        return startNanos;
    }

    /** {@link System#nanoTime()} when {@link #stop()} ended tracking, or -1 while it runs. */
    public long endNanos() {
        return endNanos;
    }

    public int sampleCount() {
        synchronized (samples) {
            return samples.size();
        }
    }

    /** The samples taken so far, in time order. */
    public List<PowerSample> samples() {
        return copy();
    }

    /** Whether the sampler is still running (false after {@link #stop()} or a sampling error). */
    public boolean isRunning() {
        return running && sampler.isAlive();
    }

    /** A summary up to now, without stopping; energy is integrated from the samples taken so far. */
    public PowerSummary snapshot() {
        synchronized (this) {
            if (finalSummary != null) {
                return finalSummary;
            }
        }
        long now = System.nanoTime();
        return PowerSummary.of(
                copyUntil(now),
                startNanos,
                now,
                OptionalLong.empty(),
                OptionalLong.empty(),
                Optional.ofNullable(error));
    }

    /** Stops sampling and returns the final summary; later calls return the same summary. */
    public synchronized PowerSummary stop() {
        if (finalSummary != null) {
            return finalSummary;
        }
        long end = System.nanoTime();
        endNanos = end;
        running = false;
        LockSupport.unpark(sampler);
        boolean interrupted = false;
        while (sampler.isAlive()) {
            try {
                sampler.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        OptionalLong energyEnd = energyStart.isPresent() ? readEnergy(source) : OptionalLong.empty();
        finalSummary =
                PowerSummary.of(copyUntil(end), startNanos, end, energyStart, energyEnd, Optional.ofNullable(error));
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return finalSummary;
    }

    /** Same as {@link #stop()}; idempotent. */
    @Override
    public void close() {
        stop();
    }

    private List<PowerSample> copy() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    /**
     * The samples taken up to {@code endNanos}: the sampler may take one more between the end time being read and it
     * seeing the stop, and that sample lies outside the summary's window (its trapezoid would overrun the duration).
     */
    private List<PowerSample> copyUntil(long endNanos) {
        synchronized (samples) {
            return samples.stream().filter(s -> s.timeNanos() <= endNanos).toList();
        }
    }

    private static OptionalLong readEnergy(PowerSource source) {
        try {
            return source.totalEnergyMillijoules();
        } catch (RuntimeException e) {
            return OptionalLong.empty(); // treated as "no counter": energy falls back to the integral
        }
    }
}
