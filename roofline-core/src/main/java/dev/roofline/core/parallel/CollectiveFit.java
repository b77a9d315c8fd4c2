package dev.roofline.core.parallel;

import dev.roofline.core.internal.Checks;

import java.util.List;
import java.util.Optional;

/**
 * One collective's measured time on some GPUs as a latency and a bus bandwidth (the α–β, or Hockney, model):
 * <pre>
 * seconds(bytes) = latencySeconds + busBytes(bytes) / busBytesPerSecond
 * </pre>
 * with {@link Collective#busBytes} the bytes each GPU sends by a ring (nccl-tests' bus bytes), so one β serves every
 * size and the β of all-reduce, all-gather and reduce-scatter compare with each other and with the link's bandwidth.
 * {@link #fit} finds both from timings over many sizes, minimising the squared <em>relative</em> error: every size
 * counts alike, where plain least squares would let the largest decide α too.
 *
 * <pre>{@code
 * CollectiveFit f = CollectiveFit.fit(Collective.Op.ALL_REDUCE, 2, samples).orElseThrow();   // nccl-bench's
 * double s = f.seconds(16384);   // a decode token's all-reduce of 8192 FP16 values
 * }</pre>
 *
 * @param op                what the collective does
 * @param ranks             GPUs taking part, at least 2
 * @param latencySeconds    α, the time of an empty collective, &gt;= 0
 * @param busBytesPerSecond β, the rate each GPU's bus bytes move at, &gt; 0
 * @param launch            how the timed calls were launched: α differs by the host's launch cost between them, and a
 *                          graphed decode step wants a graph's fit
 */
public record CollectiveFit(
        Collective.Op op, int ranks, double latencySeconds, double busBytesPerSecond, Launch launch) {

    /** How the collectives behind a fit were launched. */
    public enum Launch {
        /** Replayed from a CUDA graph (nccl-tests -G), as a graphed decode step runs them. */
        GRAPH,
        /** Launched one by one from the host, as nccl-tests and PyTorch launch them by default. */
        EAGER,
        /** Not recorded (a calibration written before fits recorded it). */
        UNRECORDED
    }

    /** A fit whose launch was not recorded. */
    public CollectiveFit(Collective.Op op, int ranks, double latencySeconds, double busBytesPerSecond) {
        this(op, ranks, latencySeconds, busBytesPerSecond, Launch.UNRECORDED);
    }

    /** This fit, stating how its calls were launched. */
    public CollectiveFit withLaunch(Launch how) {
        return new CollectiveFit(op, ranks, latencySeconds, busBytesPerSecond, how);
    }

    /** One timing: a collective of {@code bytes} (as {@link Collective} counts its buffer) took {@code seconds}. */
    public record Sample(long bytes, double seconds) {
        public Sample {
            if (bytes < 0) {
                throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
            }
            Checks.positive("seconds", seconds);
        }
    }

    public CollectiveFit {
        Checks.notNull("op", op);
        Checks.notNull("launch", launch);
        if (ranks < 2) {
            throw new IllegalArgumentException("ranks must be >= 2 for a collective that moves bytes, got " + ranks);
        }
        if (!(latencySeconds >= 0 && latencySeconds < 1)) {
            throw new IllegalArgumentException("latencySeconds must be in [0, 1) s, got " + latencySeconds);
        }
        Checks.positive("busBytesPerSecond", busBytesPerSecond);
    }

    /**
     * The α and β that minimise {@code Σ ((α + b_i / β − t_i) / t_i)²} over {@code samples} (weighted least squares,
     * closed form); α is held at 0 when the unconstrained minimum would make it negative. Empty when the time does not
     * grow with the bytes (sizes that are all latency): no bandwidth fits them.
     *
     * @throws IllegalArgumentException with fewer than two distinct sizes
     */
    public static Optional<CollectiveFit> fit(Collective.Op op, int ranks, List<Sample> samples) {
        Checks.notNull("samples", samples);
        if (samples.stream().map(Sample::bytes).distinct().count() < 2) {
            throw new IllegalArgumentException(
                    "samples: a fit needs at least two sizes, got " + samples.size() + " sample(s) of "
                            + samples.stream().map(Sample::bytes).distinct().count());
        }
        // weights 1/t²; unknowns α and γ = 1/β in t ≈ α + γ·x, x the bus bytes
        double sw = 0, sx = 0, sxx = 0, st = 0, sxt = 0;
        for (Sample s : samples) {
            double x = new Collective(op, Collective.Algorithm.RING, ranks, s.bytes()).busBytes();
            double w = 1 / (s.seconds() * s.seconds());
            sw += w;
            sx += w * x;
            sxx += w * x * x;
            st += w * s.seconds();
            sxt += w * x * s.seconds();
        }
        double det = sw * sxx - sx * sx;
        double alpha = (sxx * st - sx * sxt) / det;
        double gamma = (sw * sxt - sx * st) / det;
        if (alpha < 0) {
            alpha = 0;
            gamma = sxt / sxx;
        }
        if (!(gamma > 0)) {
            return Optional.empty();
        }
        return Optional.of(new CollectiveFit(op, ranks, alpha, 1 / gamma));
    }

    /** The fitted time of a collective of {@code bytes}. */
    public double seconds(long bytes) {
        return latencySeconds
                + new Collective(op, Collective.Algorithm.RING, ranks, bytes).busBytes() / busBytesPerSecond;
    }

    /** The largest |fitted − measured| / measured over {@code samples}, in percent. */
    public double maxErrorPercent(List<Sample> samples) {
        double worst = 0;
        for (Sample s : samples) {
            worst = Math.max(worst, Math.abs(seconds(s.bytes()) - s.seconds()) / s.seconds() * 100);
        }
        return worst;
    }
}
