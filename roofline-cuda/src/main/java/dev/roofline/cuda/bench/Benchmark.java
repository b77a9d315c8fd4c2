package dev.roofline.cuda.bench;

import dev.roofline.core.energy.EnergyReading;
import dev.roofline.core.energy.OperationEnergy;
import dev.roofline.core.energy.PowerMeter;
import dev.roofline.cuda.CudaGraph;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Event;
import dev.roofline.cuda.Stream;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Times GPU work with CUDA events (see {@link BenchmarkOptions}) and, given a {@link PowerMeter}, measures the energy
 * of running it back to back. {@code launch} receives the input-set index to use, rotating over {@code sets}.
 */
public final class Benchmark {
    /** GPU time the energy phase runs at least: several of the meter's samples and counter updates. */
    public static final double ENERGY_PHASE_SECONDS =
            1.0; // NVML's energy counter steps are coarse against shorter windows

    private Benchmark() {}

    /**
     * Times a device-to-device copy of {@code bytes}, rotating over {@code pairs} source/destination buffer pairs (see
     * {@link BenchmarkOptions#inputSets} for an L2-cold count); the buffers live only for the measurement.
     */
    public static TimingStats copy(Stream stream, long bytes, int pairs, BenchmarkOptions o) {
        if (pairs < 1) {
            throw new IllegalArgumentException("pairs must be >= 1, got " + pairs);
        }
        List<DeviceBuffer> owned = new ArrayList<>();
        try {
            DeviceBuffer[] src = new DeviceBuffer[pairs];
            DeviceBuffer[] dst = new DeviceBuffer[pairs];
            for (int i = 0; i < pairs; i++) {
                src[i] = DeviceBuffer.allocate(bytes);
                owned.add(src[i]);
                dst[i] = DeviceBuffer.allocate(bytes);
                owned.add(dst[i]);
                src[i].fill(0x5A);
            }
            return time(stream, o, pairs, i -> dst[i].copyFromAsync(src[i], bytes, stream));
        } finally {
            owned.forEach(DeviceBuffer::close);
        }
    }

    public static TimingStats time(Stream stream, BenchmarkOptions o, int sets, IntConsumer launch) {
        Runnable one = rotating(sets, launch);
        for (int i = 0; i < o.warmup(); i++) {
            one.run();
        }
        stream.synchronize();
        int n = o.launchesPerSample();
        double[] micros;
        if (o.graph()) {
            try (CudaGraph g = stream.capture(() -> repeat(n, one))) {
                g.launch(stream); // upload and warm the graph
                stream.synchronize();
                micros = samples(stream, o.repetitions(), o.backToBack(), () -> g.launch(stream));
            }
        } else {
            micros = samples(stream, o.repetitions(), o.backToBack(), () -> repeat(n, one));
        }
        for (int i = 0; i < micros.length; i++) {
            micros[i] /= n;
        }
        return TimingStats.of(micros);
    }

    /**
     * Runs the work back to back (as {@code o} launches it, graphs included) for at least {@link #ENERGY_PHASE_SECONDS}
     * of GPU time inside one {@link PowerMeter.Session}, after a warm chunk outside it.
     *
     * @param secondsPerLaunch the timed median, to size the phase
     */
    public static OperationEnergy energy(
            Stream stream,
            BenchmarkOptions o,
            int sets,
            IntConsumer launch,
            PowerMeter meter,
            String gpuUuid,
            double secondsPerLaunch) {
        Runnable one = rotating(sets, launch);
        int n = o.launchesPerSample();
        CudaGraph g = o.graph() ? stream.capture(() -> repeat(n, one)) : null;
        try (Event start = Event.create();
                Event end = Event.create()) {
            Runnable chunk = g != null ? () -> g.launch(stream) : () -> repeat(n, one);
            chunk.run();
            stream.synchronize();
            long launches = 0;
            double gpuSeconds = 0;
            EnergyReading reading;
            try (PowerMeter.Session session = meter.start(gpuUuid)) {
                start.record(stream);
                while (gpuSeconds < ENERGY_PHASE_SECONDS) {
                    long chunks = chunksFor(ENERGY_PHASE_SECONDS - gpuSeconds, secondsPerLaunch, n);
                    for (long c = 0; c < chunks; c++) {
                        chunk.run();
                    }
                    launches += chunks * n;
                    end.record(stream);
                    gpuSeconds = end.elapsedMillisSince(start) / 1e3;
                }
                reading = session.stop();
            }
            return new OperationEnergy(meter.name(), reading, launches, gpuSeconds);
        } finally {
            if (g != null) {
                g.close();
            }
        }
    }

    /** Chunks of {@code launchesPerChunk} covering {@code seconds} at {@code secondsPerLaunch}, 10% over, at least 1. */
    static long chunksFor(double seconds, double secondsPerLaunch, int launchesPerChunk) {
        if (!(secondsPerLaunch > 0) || launchesPerChunk < 1) {
            throw new IllegalArgumentException("need secondsPerLaunch > 0 and launchesPerChunk >= 1, got "
                    + secondsPerLaunch + ", " + launchesPerChunk);
        }
        return Math.max(1, (long) Math.ceil(1.1 * seconds / secondsPerLaunch / launchesPerChunk));
    }

    /** Microseconds of each of {@code reps} samples. */
    private static double[] samples(Stream stream, int reps, boolean backToBack, Runnable sample) {
        double[] micros = new double[reps];
        List<Event> events = new ArrayList<>();
        try {
            if (backToBack) {
                for (int r = 0; r <= reps; r++) {
                    events.add(Event.create());
                }
                events.get(0).record(stream);
                for (int r = 0; r < reps; r++) {
                    sample.run();
                    events.get(r + 1).record(stream);
                }
                for (int r = 0; r < reps; r++) {
                    micros[r] = events.get(r + 1).elapsedMillisSince(events.get(r)) * 1e3;
                }
            } else {
                events.add(Event.create());
                events.add(Event.create());
                for (int r = 0; r < reps; r++) {
                    events.get(0).record(stream);
                    sample.run();
                    events.get(1).record(stream);
                    micros[r] = events.get(1).elapsedMillisSince(events.get(0)) * 1e3;
                }
            }
        } finally {
            events.forEach(Event::close);
        }
        return micros;
    }

    private static Runnable rotating(int sets, IntConsumer launch) {
        int[] next = {0};
        return () -> launch.accept(next[0]++ % sets);
    }

    private static void repeat(int n, Runnable r) {
        for (int i = 0; i < n; i++) {
            r.run();
        }
    }
}
