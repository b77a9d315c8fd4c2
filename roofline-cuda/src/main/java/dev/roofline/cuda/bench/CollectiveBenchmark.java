package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.parallel.Collective;
import dev.roofline.core.parallel.CollectiveFit;
import dev.roofline.cuda.CudaGraph;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Event;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.nccl.Communicator;
import dev.roofline.cuda.nccl.Communicators;
import dev.roofline.cuda.nccl.DataType;
import dev.roofline.cuda.nccl.Nccl;
import dev.roofline.cuda.nccl.ReduceOp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * NCCL's all-reduce, all-gather and reduce-scatter on the GPUs of a {@link Communicators}, timed as nccl-tests times
 * them (github.com/NVIDIA/nccl-tests): float32 sums, sizes doubling from {@code minBytes} to {@code maxBytes} (the
 * reduced buffer, the gathered output, the scattered input), each rank on its own thread, 5 warm-up calls, then
 * {@code iters} calls between two CUDA events on the rank's stream (nccl-tests' mean per call), launched one by one
 * from the host ({@code graph} false, as nccl-tests and PyTorch launch them) or replayed from one CUDA graph holding
 * all of them ({@code graph} true, nccl-tests' {@code -G}, as a graphed decode step runs its all-reduces: no host
 * launch in the time), repeated
 * {@value #SAMPLES} times with the ranks lined up before each; a rank's time is the median of those means, a size's
 * the average over the ranks (nccl-tests' default). The median keeps one host hiccup (a thread descheduled between
 * two launches) out of a size that takes a few microseconds. All-reduce runs in place, as PyTorch's does; the other two out of place. Beside
 * each size: the algorithm and bus bandwidth (nccl-tests' PERFORMANCE.md), and NCCL's own cost model of it on
 * {@code link} ({@link Collective#seconds}); per operation, the α–β fit over all sizes ({@link CollectiveFit}).
 *
 * <pre>{@code
 * try (Communicators gpus = Communicators.ofAllDevices()) {
 *     CollectiveBenchmark.Results r = CollectiveBenchmark.run(gpus, List.of(Collective.Op.ALL_REDUCE), 8, 1L << 30,
 *             20, true, Interconnect.NVLINK_4, m -> {});
 *     System.out.print(r.render(ReportFormat.TEXT));
 * }
 * }</pre>
 */
public final class CollectiveBenchmark {
    /** The operations it measures: the three nccl-tests' bandwidth figures are usually quoted for. */
    public static final List<Collective.Op> OPS =
            List.of(Collective.Op.ALL_REDUCE, Collective.Op.ALL_GATHER, Collective.Op.REDUCE_SCATTER);

    static final int WARMUP = 5;
    static final int SAMPLES = 5;
    private static final DataType TYPE = DataType.FLOAT32;

    private CollectiveBenchmark() {}

    /**
     * One size of one operation.
     *
     * @param op        the collective
     * @param ranks     GPUs
     * @param bytes     the buffer as nccl-tests counts it (a multiple of 4 × ranks)
     * @param seconds   mean time per call, averaged over the ranks
     * @param predicted NCCL's cost model on the link given
     */
    public record Measurement(Collective.Op op, int ranks, long bytes, double seconds, double predicted) {
        /** bytes / time, nccl-tests' "algbw". */
        public double algorithmBytesPerSecond() {
            return bytes / seconds;
        }

        /** Bytes each GPU sends / time, nccl-tests' "busbw". */
        public double busBytesPerSecond() {
            return new Collective(op, Collective.Algorithm.RING, ranks, bytes).busBytes() / seconds;
        }

        /** (predicted − measured) / measured, in percent. */
        public double errorPercent() {
            return (predicted - seconds) / seconds * 100;
        }

        CollectiveFit.Sample sample() {
            return new CollectiveFit.Sample(bytes, seconds);
        }
    }

    static final Table<Measurement> TABLE = Table.of(List.of(
            Column.text("collective", "op", m -> m.op().name().toLowerCase(Locale.ROOT)),
            Column.number("ranks", "ranks", "%d", "%d", Measurement::ranks),
            Column.number("bytes", "bytes", "%d", "%d", Measurement::bytes),
            Column.number("time us", "time_us", "%.2f", "%.3f", m -> m.seconds() * 1e6),
            Column.number("algbw GB/s", "algbw_gbps", "%.2f", "%.3f", m -> m.algorithmBytesPerSecond() / 1e9),
            Column.number("busbw GB/s", "busbw_gbps", "%.2f", "%.3f", m -> m.busBytesPerSecond() / 1e9),
            Column.number("NCCL model us", "predicted_us", "%.2f", "%.3f", m -> m.predicted() * 1e6),
            Column.number("err %", "error_pct", "%+.1f", "%.2f", Measurement::errorPercent)));

    /**
     * What {@link #run} measured.
     *
     * @param devices      the GPUs, as their names
     * @param ncclVersion  the NCCL loaded, e.g. 2.28.9
     * @param link         the interconnect the predictions assume
     * @param graph        whether the calls were replayed from a CUDA graph rather than launched one by one
     * @param measurements every size of every operation, in the order run
     */
    public record Results(
            String devices, String ncclVersion, Interconnect link, boolean graph, List<Measurement> measurements) {
        public Results {
            measurements = List.copyOf(measurements);
        }

        /**
         * Per operation, the α–β fit over its sizes; an operation whose time does not grow over the sizes measured (all
         * of them latency) has no bandwidth to fit and is left out.
         */
        public List<CollectiveFit> fits() {
            List<CollectiveFit> fits = new ArrayList<>();
            for (Collective.Op op : OPS) {
                List<CollectiveFit.Sample> samples = samples(op);
                if (samples.stream().map(CollectiveFit.Sample::bytes).distinct().count() >= 2) {
                    CollectiveFit.fit(op, measurements.getFirst().ranks(), samples)
                            .map(f -> f.withLaunch(graph ? CollectiveFit.Launch.GRAPH : CollectiveFit.Launch.EAGER))
                            .ifPresent(fits::add);
                }
            }
            return fits;
        }

        List<CollectiveFit.Sample> samples(Collective.Op op) {
            return measurements.stream()
                    .filter(m -> m.op() == op)
                    .map(Measurement::sample)
                    .toList();
        }

        /** The table in {@code format}; text and Markdown add the GPUs, NCCL's version and the fits. */
        public String render(ReportFormat format) {
            String table = Report.render(TABLE, measurements, format);
            if (format == ReportFormat.CSV) {
                return table;
            }
            StringBuilder sb = new StringBuilder();
            sb.append(devices).append(", NCCL ").append(ncclVersion).append(", ");
            sb.append(graph ? "calls replayed from a CUDA graph" : "calls launched one by one");
            sb.append("; model on ").append(link.name());
            sb.append("\n\n").append(table).append('\n');
            for (CollectiveFit f : fits()) {
                sb.append(String.format(
                        Locale.ROOT,
                        "%s on %d GPUs: latency %.2f us, bus bandwidth %.1f GB/s (fit to within %.0f %% of every"
                                + " size)%n",
                        f.op().name().toLowerCase(Locale.ROOT),
                        f.ranks(),
                        f.latencySeconds() * 1e6,
                        f.busBytesPerSecond() / 1e9,
                        f.maxErrorPercent(samples(f.op()))));
            }
            return sb.toString();
        }
    }

    /**
     * Times each of {@code ops} at every size from {@code minBytes} to {@code maxBytes} (doubling) on every rank of
     * {@code comms}, {@code iters} calls a size, from a CUDA graph or not ({@code graph}); {@code progress} sees each
     * size as it is measured.
     */
    public static Results run(
            Communicators comms,
            List<Collective.Op> ops,
            long minBytes,
            long maxBytes,
            int iters,
            boolean graph,
            Interconnect link,
            Consumer<Measurement> progress) {
        Objects.requireNonNull(comms, "comms must not be null");
        Objects.requireNonNull(link, "link must not be null");
        Objects.requireNonNull(progress, "progress must not be null");
        for (Collective.Op op : ops) {
            if (!OPS.contains(op)) {
                throw new IllegalArgumentException("ops: " + op + " is not measured; give some of " + OPS);
            }
        }
        if (minBytes < 1 || maxBytes < minBytes) {
            throw new IllegalArgumentException(
                    "sizes: need 1 <= minBytes <= maxBytes, got " + minBytes + " and " + maxBytes);
        }
        if (iters < 1) {
            throw new IllegalArgumentException("iters must be >= 1, got " + iters);
        }
        int n = comms.size();
        List<Long> sizes = sizes(minBytes, maxBytes, n);
        List<Measurement> out = new ArrayList<>();
        for (Collective.Op op : ops) {
            CyclicBarrier barrier = new CyclicBarrier(n);
            List<double[]> perRank = comms.onEachRank(c -> {
                try {
                    return timeOnRank(c, op, sizes, iters, graph, barrier);
                } catch (RuntimeException e) {
                    barrier.reset(); // the ranks waiting at the barrier fail now instead of after its timeout
                    throw e;
                }
            });
            for (int i = 0; i < sizes.size(); i++) {
                double sum = 0;
                for (double[] t : perRank) {
                    sum += t[i];
                }
                long bytes = sizes.get(i);
                Measurement m = new Measurement(
                        op, n, bytes, sum / n, new Collective(op, Collective.Algorithm.RING, n, bytes).seconds(link));
                out.add(m);
                progress.accept(m);
            }
        }
        return new Results(comms.size() + " GPUs", Nccl.version(), link, graph, out);
    }

    /** Doubling sizes from min to max, each rounded down to whole float32 elements split evenly over the ranks. */
    static List<Long> sizes(long minBytes, long maxBytes, int ranks) {
        List<Long> sizes = new ArrayList<>();
        long unit = (long) TYPE.bytes() * ranks;
        for (long b = minBytes; b <= maxBytes; b *= 2) {
            long rounded = Math.max(unit, b / unit * unit);
            if (sizes.isEmpty() || sizes.getLast() != rounded) {
                sizes.add(rounded);
            }
            if (b > Long.MAX_VALUE / 2) {
                break;
            }
        }
        return sizes;
    }

    private static double[] timeOnRank(
            Communicator c, Collective.Op op, List<Long> sizes, int iters, boolean graph, CyclicBarrier barrier) {
        long max = sizes.getLast();
        int n = c.size();
        long sendBytes = op == Collective.Op.ALL_GATHER ? max / n : max;
        long recvBytes = op == Collective.Op.REDUCE_SCATTER ? max / n : max;
        double[] seconds = new double[sizes.size()];
        try (DeviceBuffer send = DeviceBuffer.allocate(sendBytes);
                DeviceBuffer recv = op == Collective.Op.ALL_REDUCE ? null : DeviceBuffer.allocate(recvBytes);
                Stream stream = Stream.create();
                Event start = Event.create();
                Event end = Event.create()) {
            send.fill(0);
            for (int i = 0; i < sizes.size(); i++) {
                long elements = sizes.get(i) / TYPE.bytes();
                Runnable call =
                        switch (op) {
                            case ALL_REDUCE -> () -> c.allReduce(send, send, elements, TYPE, ReduceOp.SUM, stream);
                            case ALL_GATHER -> () -> c.allGather(send, recv, elements / n, TYPE, stream);
                            case REDUCE_SCATTER ->
                                () -> c.reduceScatter(send, recv, elements / n, TYPE, ReduceOp.SUM, stream);
                            default -> throw new IllegalArgumentException(op + " is not measured");
                        };
                for (int w = 0; w < WARMUP; w++) {
                    call.run();
                }
                Runnable loop = () -> {
                    for (int k = 0; k < iters; k++) {
                        call.run();
                    }
                };
                try (CudaGraph g = graph ? stream.capture(loop) : null) {
                    Runnable timed = g == null ? loop : () -> g.launch(stream);
                    if (g != null) {
                        await(barrier);
                        g.launch(stream); // uploads the graph; every rank replays it as often as the others
                        stream.synchronize();
                    }
                    double[] means = new double[SAMPLES];
                    for (int sample = 0; sample < SAMPLES; sample++) {
                        stream.synchronize();
                        await(barrier);
                        start.record(stream);
                        timed.run();
                        end.record(stream);
                        end.synchronize();
                        means[sample] = end.elapsedMillisSince(start) / 1e3 / iters;
                    }
                    Arrays.sort(means);
                    seconds[i] = means[SAMPLES / 2];
                }
            }
        }
        return seconds;
    }

    /**
     * Lines the ranks up before each timed loop. A failed rank resets the barrier, which fails the ranks waiting
     * there; a rank waits at most 120 s in any case.
     */
    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the other ranks", e);
        } catch (BrokenBarrierException | TimeoutException e) {
            throw new IllegalStateException("another rank failed or did not arrive within 120 s", e);
        }
    }
}
