package dev.roofline.cuda.bench;

import dev.roofline.cuda.CudaGraph;
import dev.roofline.cuda.Event;
import dev.roofline.cuda.Stream;

import java.util.function.IntConsumer;

/**
 * Times GPU work with CUDA events: warm-up launches, then one sample per repetition (or per graph replay, divided by
 * the launches it holds). {@code launch} receives the input-set index to use, rotating over {@code sets}.
 */
public final class Benchmark {
    private Benchmark() {}

    public static TimingStats time(Stream stream, BenchmarkOptions o, int sets, IntConsumer launch) {
        int[] next = {0};
        Runnable one = () -> launch.accept(next[0]++ % sets);
        for (int i = 0; i < o.warmup(); i++) {
            one.run();
        }
        stream.synchronize();
        double[] micros = new double[o.repetitions()];
        try (Event start = Event.create(); Event end = Event.create()) {
            if (o.graph()) {
                try (CudaGraph g = stream.capture(() -> {
                    for (int i = 0; i < o.launchesPerGraph(); i++) {
                        one.run();
                    }
                })) {
                    g.launch(stream); // upload and warm the graph
                    stream.synchronize();
                    for (int r = 0; r < o.repetitions(); r++) {
                        start.record(stream);
                        g.launch(stream);
                        end.record(stream);
                        micros[r] = end.elapsedMillisSince(start) * 1e3 / o.launchesPerGraph();
                    }
                }
            } else {
                for (int r = 0; r < o.repetitions(); r++) {
                    start.record(stream);
                    one.run();
                    end.record(stream);
                    micros[r] = end.elapsedMillisSince(start) * 1e3;
                }
            }
        }
        return TimingStats.of(micros);
    }
}
