package dev.roofline.cuda.bench;

/**
 * How a kernel is timed. Each sample is one region of {@code launchesPerSample} launches between two CUDA events and
 * yields the region's time divided by its launches.
 *
 * @param warmup            untimed launches first
 * @param repetitions       timed samples
 * @param l2Cold            rotate over input sets totalling at least 4x the L2, so no launch finds its inputs cached
 * @param graph             capture the sample's launches into a CUDA graph and time its replays (short kernels)
 * @param launchesPerSample launches in one timed region
 * @param backToBack        enqueue all samples one after another with events between them and synchronize once at the
 *                          end (steady state, as in a serving loop); otherwise each sample waits for the one before
 */
public record BenchmarkOptions(
        int warmup, int repetitions, boolean l2Cold, boolean graph, int launchesPerSample, boolean backToBack) {

    public BenchmarkOptions {
        if (warmup < 0 || repetitions < 1 || launchesPerSample < 1) {
            throw new IllegalArgumentException("need warmup >= 0, repetitions >= 1, launchesPerSample >= 1, got "
                    + warmup + ", " + repetitions + ", " + launchesPerSample);
        }
    }

    /** Samples that each wait for the one before. */
    public BenchmarkOptions(int warmup, int repetitions, boolean l2Cold, boolean graph, int launchesPerSample) {
        this(warmup, repetitions, l2Cold, graph, launchesPerSample, false);
    }

    /** 10 warm-ups, then 50 back-to-back samples of 10 launches each, L2-cold, no graph. */
    public static BenchmarkOptions defaults() {
        return new BenchmarkOptions(10, 50, true, false, 10, true);
    }

    /** 10 warm-ups, 50 samples of one launch each, each waiting for the one before, L2-cold. */
    public static BenchmarkOptions isolated() {
        return new BenchmarkOptions(10, 50, true, false, 1, false);
    }

    /** The same, with {@code launches} captured into a graph replayed once per sample. */
    public BenchmarkOptions withGraph(int launches) {
        return new BenchmarkOptions(warmup, repetitions, l2Cold, true, launches, backToBack);
    }

    public BenchmarkOptions withRepetitions(int n) {
        return new BenchmarkOptions(warmup, n, l2Cold, graph, launchesPerSample, backToBack);
    }

    public BenchmarkOptions withWarmup(int n) {
        return new BenchmarkOptions(n, repetitions, l2Cold, graph, launchesPerSample, backToBack);
    }

    public BenchmarkOptions withLaunchesPerSample(int n) {
        return new BenchmarkOptions(warmup, repetitions, l2Cold, graph, n, backToBack);
    }

    public BenchmarkOptions withL2Cold(boolean on) {
        return new BenchmarkOptions(warmup, repetitions, on, graph, launchesPerSample, backToBack);
    }

    /** Input sets to rotate over: 1 when warm; else enough for 4x the L2 and never fewer than 2. */
    public int inputSets(long l2Bytes, long bytesPerSet) {
        if (!l2Cold) {
            return 1;
        }
        if (bytesPerSet <= 0) {
            throw new IllegalArgumentException("bytesPerSet must be > 0, got " + bytesPerSet);
        }
        return (int) Math.max(2, Math.ceilDiv(4 * l2Bytes, bytesPerSet));
    }
}
