package dev.roofline.core.parallel;

import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.internal.Checks;

/**
 * One collective over {@code ranks} GPUs on an {@link Interconnect}, priced as NCCL's tuner prices it
 * ({@link NcclModel}): for each of its protocols, the base latency, the steps times the latency of one step over the
 * link, and the bytes each GPU sends over the bandwidth the protocol carries data at; the cheapest protocol is the
 * time.
 *
 * <pre>{@code
 * // tensor parallelism's all-reduce of one decode token's hidden state (8192 FP16 values) on 8 H100s
 * double s = Collective.allReduce(8, 16384).seconds(Interconnect.NVLINK_4);
 * }</pre>
 *
 * Bytes a GPU sends ({@link #busBytes}, nccl-tests' "bus bandwidth" factors, PERFORMANCE.md in
 * github.com/NVIDIA/nccl-tests), with {@code n} the buffer ({@code bytes}) and {@code p} the ranks:
 * <ul>
 *   <li>all-reduce, ring or tree: {@code 2 (p − 1) / p · n}; in the switch (NVLS): {@code n} (each GPU sends its buffer
 *       to the switch once and receives the sum once);</li>
 *   <li>all-gather and reduce-scatter ({@code n} the gathered buffer): {@code (p − 1) / p · n};</li>
 *   <li>all-to-all ({@code n} the buffer each GPU holds): {@code (p − 1) / p · n};</li>
 *   <li>send/receive between two GPUs: {@code n}.</li>
 * </ul>
 * Steps ({@link #steps}), as NCCL counts them: ring all-reduce {@code 2 (p − 1)}; tree all-reduce
 * {@code 2 (p − 1)} within a node (NCCL's tree is a chain there) and {@code 2 ⌈log₂ p⌉} across a network (one GPU
 * per node); all-gather, reduce-scatter and all-to-all {@code p − 1}; send/receive 1. An in-switch all-reduce costs
 * NCCL's NVLS latency and the Simple protocol's bandwidth. One rank costs nothing.
 *
 * @param op        what the collective does
 * @param algorithm how: ring, tree (all-reduce only) or in-switch (all-reduce only, on a link that reduces)
 * @param ranks     GPUs taking part
 * @param bytes     the buffer, as above
 */
public record Collective(Op op, Algorithm algorithm, int ranks, long bytes) {

    /** What a collective does. */
    public enum Op {
        ALL_REDUCE,
        ALL_GATHER,
        REDUCE_SCATTER,
        ALL_TO_ALL,
        SEND_RECV
    }

    /** How the bytes travel. */
    public enum Algorithm {
        RING,
        TREE,
        IN_SWITCH
    }

    public Collective {
        Checks.notNull("op", op);
        Checks.notNull("algorithm", algorithm);
        Checks.positive("ranks", ranks);
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
        }
        if (algorithm != Algorithm.RING && op != Op.ALL_REDUCE) {
            throw new IllegalArgumentException(algorithm + " runs all-reduce only, not " + op);
        }
        if (op == Op.SEND_RECV && ranks != 2) {
            throw new IllegalArgumentException("send/receive is between 2 ranks, got " + ranks);
        }
    }

    /** A ring all-reduce of a {@code bytes} buffer. */
    public static Collective allReduce(int ranks, long bytes) {
        return new Collective(Op.ALL_REDUCE, Algorithm.RING, ranks, bytes);
    }

    /** A ring all-gather into a {@code bytes} buffer. */
    public static Collective allGather(int ranks, long bytes) {
        return new Collective(Op.ALL_GATHER, Algorithm.RING, ranks, bytes);
    }

    /** The same collective by another algorithm. */
    public Collective with(Algorithm a) {
        return new Collective(op, a, ranks, bytes);
    }

    /** Bytes one GPU sends (see the class comment). */
    public double busBytes() {
        double p = ranks;
        return switch (op) {
            case ALL_REDUCE -> algorithm == Algorithm.IN_SWITCH ? bytes : 2 * (p - 1) / p * bytes;
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL -> (p - 1) / p * bytes;
            case SEND_RECV -> bytes;
        };
    }

    /** Latency steps over {@code link} (see the class comment). */
    public int steps(Interconnect link) {
        Checks.notNull("link", link);
        return switch (op) {
            case ALL_REDUCE ->
                switch (algorithm) {
                    case RING -> 2 * (ranks - 1);
                    case TREE -> link.kind() == Interconnect.Kind.NETWORK ? 2 * ceilLog2(ranks) : 2 * (ranks - 1);
                    case IN_SWITCH -> 0;
                };
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL -> ranks - 1;
            case SEND_RECV -> 1;
        };
    }

    /**
     * Seconds on {@code link}: the cheapest of NCCL's protocols.
     *
     * @throws IllegalArgumentException for an in-switch all-reduce on a link without in-switch reduction
     */
    public double seconds(Interconnect link) {
        Checks.notNull("link", link);
        if (algorithm == Algorithm.IN_SWITCH && !link.inSwitchReduction()) {
            throw new IllegalArgumentException(link.name() + " has no in-switch reduction");
        }
        if (ranks == 1) {
            return 0;
        }
        if (algorithm == Algorithm.IN_SWITCH) {
            return NcclModel.NVLS_SECONDS + busBytes() / link.bytesPerSecond();
        }
        double best = Double.POSITIVE_INFINITY;
        for (NcclModel.Protocol p : NcclModel.Protocol.values()) {
            best = Math.min(best, seconds(link, p));
        }
        return best;
    }

    /** Seconds on {@code link} with protocol {@code p}. */
    double seconds(Interconnect link, NcclModel.Protocol p) {
        boolean tree = algorithm == Algorithm.TREE;
        return NcclModel.base(tree, p)
                + steps(link) * NcclModel.step(link, tree, p)
                + busBytes() / (link.bytesPerSecond() * p.bandwidthShare);
    }

    private static int ceilLog2(int n) {
        return 32 - Integer.numberOfLeadingZeros(n - 1);
    }
}
