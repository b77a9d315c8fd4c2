package dev.roofline.cuda.nccl;

import dev.roofline.cuda.ClosedResourceException;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.internal.Handles;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * The NCCL communicators of some GPUs of this host, made together by {@code ncclCommInitAll} from one JVM: rank i runs
 * on the i-th device given. Work runs one thread per GPU ({@link #onEachRank}), as NCCL expects of a process that
 * drives several GPUs without group calls.
 *
 * <pre>{@code
 * try (Communicators gpus = Communicators.ofDevices(0, 1, 2, 3)) {
 *     List<Double> ms = gpus.onEachRank(comm -> timeAnAllReduce(comm));
 * }
 * }</pre>
 */
public final class Communicators implements AutoCloseable {
    private final List<Communicator> ranks;

    private Communicators(List<Communicator> ranks) {
        this.ranks = ranks;
    }

    /**
     * One communicator per device of {@code devices}, in that order.
     *
     * @throws IllegalArgumentException when {@code devices} is empty, repeats a device or names one this host lacks
     * @throws NcclException            when NCCL cannot make them
     * @throws dev.roofline.cuda.CudaUnavailableException or {@link dev.roofline.bindings.loader.LibraryNotFoundException}
     *                                  when CUDA or NCCL is missing (see {@link Nccl#unavailableReason()})
     */
    public static Communicators ofDevices(int... devices) {
        Objects.requireNonNull(devices, "devices must not be null");
        if (devices.length == 0) {
            throw new IllegalArgumentException("devices: give at least one CUDA device");
        }
        NcclCalls.load();
        int count = Cuda.deviceCount();
        Set<Integer> seen = new HashSet<>();
        for (int d : devices) {
            if (d < 0 || d >= count) {
                throw new IllegalArgumentException("devices: " + d + " is not a CUDA device of this host (it has "
                        + count + ": 0.." + (count - 1) + ")");
            }
            if (!seen.add(d)) {
                throw new IllegalArgumentException("devices: " + d + " is given twice");
            }
        }
        MemorySegment[] comms = NcclCalls.initAll(devices.clone());
        List<Communicator> ranks = new ArrayList<>(devices.length);
        for (int r = 0; r < comms.length; r++) {
            ranks.add(new Communicator(
                    Handles.own(comms[r], 0, "NCCL communicator", NcclCalls::destroy), r, comms.length, devices[r]));
        }
        return new Communicators(List.copyOf(ranks));
    }

    /** One communicator per device of this host: ranks 0..n-1 on devices 0..n-1. */
    public static Communicators ofAllDevices() {
        NcclCalls.load();
        return ofFirstDevices(Cuda.deviceCount());
    }

    /**
     * Ranks 0..n-1 on devices 0..n-1.
     *
     * @throws IllegalArgumentException when this host has fewer than {@code n} devices (see {@link #ofDevices})
     */
    public static Communicators ofFirstDevices(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("devices: give at least one CUDA device, got " + n);
        }
        int[] devices = new int[n];
        for (int d = 0; d < n; d++) {
            devices[d] = d;
        }
        return ofDevices(devices);
    }

    /** Ranks, one per GPU. */
    public int size() {
        return ranks.size();
    }

    /** Rank {@code r}'s communicator. */
    public Communicator rank(int r) {
        if (r < 0 || r >= ranks.size()) {
            throw new IllegalArgumentException("rank must be in [0, " + ranks.size() + "), got " + r);
        }
        return ranks.get(r);
    }

    /**
     * Runs {@code task} for every rank at once, each on its own thread with that rank's device current, and returns
     * the results in rank order. A rank that throws fails the whole call with its exception (the others' attached as
     * suppressed) once every rank has finished: collectives need all ranks, so a task must not leave the others
     * waiting on a call it will never make.
     */
    public <T> List<T> onEachRank(Function<Communicator, T> task) {
        Objects.requireNonNull(task, "task must not be null");
        for (Communicator c : ranks) {
            if (c.isClosed()) {
                throw new ClosedResourceException("NCCL communicator");
            }
        }
        try (ExecutorService pool = Executors.newFixedThreadPool(ranks.size())) {
            List<Future<T>> futures = new ArrayList<>(ranks.size());
            for (Communicator c : ranks) {
                futures.add(pool.submit(() -> {
                    Cuda.setDevice(c.device());
                    return task.apply(c);
                }));
            }
            List<T> results = new ArrayList<>(ranks.size());
            RuntimeException failure = null;
            for (Future<T> f : futures) {
                try {
                    results.add(f.get());
                } catch (ExecutionException e) {
                    RuntimeException cause = e.getCause() instanceof RuntimeException re
                            ? re
                            : new IllegalStateException("a rank's task failed", e.getCause());
                    if (failure == null) {
                        failure = cause;
                    } else {
                        failure.addSuppressed(cause);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while the ranks ran", e);
                }
            }
            if (failure != null) {
                throw failure;
            }
            return results;
        }
    }

    /**
     * Runs {@code calls} between {@code ncclGroupStart} and {@code ncclGroupEnd}, so that the collectives they enqueue
     * (on this thread) launch as one: a rank's matching send and receive, or one thread's calls for several ranks.
     */
    public static void group(Runnable calls) {
        Objects.requireNonNull(calls, "calls must not be null");
        NcclCalls.load();
        NcclCalls.groupStart();
        try {
            calls.run();
        } finally {
            NcclCalls.groupEnd();
        }
    }

    /** Destroys every communicator; later calls do nothing. */
    @Override
    public void close() {
        for (Communicator c : ranks) {
            c.close();
        }
    }
}
