package dev.roofline.nvml;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 *
 * <p>{@link #stop()} never hangs on the GPU: it waits at most {@link #READ_TIMEOUT} for the sampler to finish the
 * reading in progress and for each energy-counter read. A reading that does not return in time is left to its daemon
 * thread, and the summary's {@link PowerSummary#error()} names it (a stuck sampler: the summary covers the samples taken
 * before it; a stuck counter: energy is integrated from the samples).
 */
public final class PowerTracker implements AutoCloseable {
    /** The sampling interval used when none is given. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(10);

    /**
     * How long {@link #stop()} waits for the sampler's reading in progress, and each energy-counter read waits, before
     * reporting it stuck: a healthy NVML reading takes well under 10 ms, so 2 s means the driver is not answering.
     */
    public static final Duration READ_TIMEOUT = Duration.ofSeconds(2);

    private final PowerSource source;
    private final long intervalNanos;
    private final Duration readTimeout;
    private final long startNanos;
    private volatile long endNanos = -1;
    private final OptionalLong energyStart;
    private final List<PowerSample> samples = new ArrayList<>();
    private final Thread sampler;
    private volatile boolean running = true;
    /** What went wrong, in order: the sampler's failure, a stuck reading, an energy-counter read that failed. */
    private final List<String> problems = new CopyOnWriteArrayList<>();

    private PowerSummary finalSummary;

    private PowerTracker(PowerSource source, Duration interval, Duration readTimeout) {
        this.source = source;
        this.intervalNanos = interval.toNanos();
        this.readTimeout = readTimeout;
        this.energyStart = readEnergy("start");
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
        return start(source, interval, READ_TIMEOUT);
    }

    /** As {@link #start(PowerSource, Duration)}, with a shorter wait for stuck readings (tests). */
    static PowerTracker start(PowerSource source, Duration interval, Duration readTimeout) {
        return new PowerTracker(source, interval, readTimeout);
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
                problems.add("sampling stopped after " + sampleCount() + " samples: " + e);
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
        return PowerSummary.of(copyUntil(now), startNanos, now, OptionalLong.empty(), OptionalLong.empty(), error());
    }

    /**
     * Stops sampling and returns the final summary; later calls return the same summary. Waits at most
     * {@link #READ_TIMEOUT} for the reading in progress and at most as long for the energy counter (see the class
     * comment); an interrupt does not cut the wait short and is passed on afterwards.
     */
    public synchronized PowerSummary stop() {
        if (finalSummary != null) {
            return finalSummary;
        }
        long end = System.nanoTime();
        endNanos = end;
        running = false;
        LockSupport.unpark(sampler);
        boolean interrupted = false;
        long deadline = System.nanoTime() + readTimeout.toNanos();
        for (long left = readTimeout.toNanos(); sampler.isAlive() && left > 0; left = deadline - System.nanoTime()) {
            try {
                sampler.join(Duration.ofNanos(left));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (sampler.isAlive()) {
            problems.add("power sampler stuck: a reading did not return within " + readTimeout.toMillis()
                    + " ms of stop; the summary covers the " + copyUntil(end).size() + " samples taken before it");
        }
        OptionalLong energyEnd = energyStart.isPresent() ? readEnergy("stop") : OptionalLong.empty();
        finalSummary = PowerSummary.of(copyUntil(end), startNanos, end, energyStart, energyEnd, error());
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

    private Optional<String> error() {
        return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
    }

    /**
     * The energy counter, read on a daemon thread and waited for at most the read timeout: empty without a counter,
     * and empty with the reason noted when the read fails or does not return (energy then falls back to the integral).
     */
    private OptionalLong readEnergy(String when) {
        CompletableFuture<OptionalLong> reading = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("roofline-energy-read").start(() -> {
            try {
                reading.complete(source.totalEnergyMillijoules());
            } catch (RuntimeException e) {
                reading.completeExceptionally(e);
            }
        });
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return reading.get(readTimeout.toNanos(), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true; // keep waiting: the timeout bounds the wait anyway
                }
            }
        } catch (TimeoutException e) {
            problems.add("energy counter read at " + when + " did not return within " + readTimeout.toMillis()
                    + " ms: energy integrated from the samples");
        } catch (ExecutionException e) {
            problems.add("energy counter read at " + when + " failed: " + e.getCause()
                    + ": energy integrated from the samples");
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return OptionalLong.empty();
    }
}
