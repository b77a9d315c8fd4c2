package dev.roofline.cuda.bench;

/**
 * How a kernel is timed.
 *
 * @param warmup           untimed launches first
 * @param repetitions      timed samples
 * @param l2Cold           rotate over input sets totalling at least 4x the L2, so no launch finds its inputs cached
 * @param graph            capture {@code launchesPerGraph} launches into a CUDA graph and time its replays (short kernels)
 * @param launchesPerGraph launches per replay when {@code graph}
 */
public record BenchmarkOptions(int warmup, int repetitions, boolean l2Cold, boolean graph, int launchesPerGraph) {

    public BenchmarkOptions {
        if (warmup < 0 || repetitions < 1 || launchesPerGraph < 1) {
            throw new IllegalArgumentException("need warmup >= 0, repetitions >= 1, launchesPerGraph >= 1, got "
                    + warmup + ", " + repetitions + ", " + launchesPerGraph);
        }
    }

    /** 10 warm-ups, 50 samples, L2-cold, no graph. */
    public static BenchmarkOptions defaults() {
        return new BenchmarkOptions(10, 50, true, false, 1);
    }

    public BenchmarkOptions withGraph(int launches) {
        return new BenchmarkOptions(warmup, repetitions, l2Cold, true, launches);
    }

    public BenchmarkOptions withRepetitions(int n) {
        return new BenchmarkOptions(warmup, n, l2Cold, graph, launchesPerGraph);
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
