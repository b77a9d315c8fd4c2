package dev.roofline.cuda.nccl;

import dev.roofline.cuda.ClosedResourceException;
import dev.roofline.cuda.Cuda;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
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
            ranks.add(Communicator.own(comms[r], r, comms.length, devices[r]));
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
     * the results in rank order. The first rank to throw aborts every communicator ({@link Communicator#abort}), so
     * that no other rank waits for ever on a collective the failed one will never make; the call then fails with that
     * exception, the other ranks' attached as suppressed, and these communicators are closed.
     */
    public <T> List<T> onEachRank(Function<Communicator, T> task) {
        Objects.requireNonNull(task, "task must not be null");
        for (Communicator c : ranks) {
            if (c.isClosed()) {
                throw new ClosedResourceException("NCCL communicator");
            }
        }
        try (ExecutorService pool = Executors.newFixedThreadPool(ranks.size())) {
            ExecutorCompletionService<T> done = new ExecutorCompletionService<>(pool);
            Map<Future<T>, Integer> rankOf = new HashMap<>();
            for (Communicator c : ranks) {
                rankOf.put(
                        done.submit(() -> {
                            Cuda.setDevice(c.device());
                            return task.apply(c);
                        }),
                        c.rank());
            }
            List<T> results = new ArrayList<>(Collections.nCopies(ranks.size(), null));
            RuntimeException failure = null;
            for (int finished = 0; finished < ranks.size(); finished++) {
                Future<T> f;
                try {
                    f = done.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    abortAll(null);
                    throw new IllegalStateException("interrupted while the ranks ran", e);
                }
                try {
                    results.set(rankOf.get(f), f.get());
                } catch (ExecutionException e) {
                    RuntimeException cause = e.getCause() instanceof RuntimeException re
                            ? re
                            : new IllegalStateException("a rank's task failed", e.getCause());
                    if (failure == null) {
                        failure = cause;
                        abortAll(failure);
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

    /** Aborts every communicator; an abort's own failure joins {@code failure} as suppressed (when there is one). */
    private void abortAll(RuntimeException failure) {
        for (Communicator c : ranks) {
            try {
                c.abort();
            } catch (RuntimeException e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                }
            }
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
        } catch (RuntimeException e) {
            try {
                NcclCalls.groupEnd();
            } catch (RuntimeException end) {
                e.addSuppressed(end); // the calls' own failure says what went wrong first
            }
            throw e;
        }
        NcclCalls.groupEnd();
    }

    /** Destroys every communicator, each even when another fails (its error then joins the first); idempotent. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (Communicator c : ranks) {
            try {
                c.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
