package dev.roofline.core.hardware;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A GPU as the roofline model sees it: memory bandwidth and per-precision arithmetic ceilings, each with its source.
 *
 * <pre>{@code
 * Hardware gb10 = Hardware.GB10;                       // or Hardware.byName("b10")
 * double bw = gb10.memoryBytesPerSecond();             // 273e9, NVIDIA DGX Spark datasheet
 * Hardware mine = Hardware.newBuilder("my-gpu").memoryBandwidth(1.0e12, Source.user("vendor sheet"))
 *         .ceiling(Precision.FP16, 200e12, Ceiling.Unit.TENSOR_CORE, Source.user("vendor sheet")).build();
 * }</pre>
 *
 * Figures must be physical: a memory bandwidth of at least {@link #MIN_BYTES_PER_SECOND} (1 GB/s) and peaks of at
 * least {@link #MIN_FLOPS_PER_SECOND} (1 GFLOP/s), finite. No GPU is slower than that; a smaller figure is a unit
 * mistake (GB/s typed as TB/s, say), and would print times hundreds of digits long.
 *
 * @param name            canonical name
 * @param aliases         other names {@link #byName} accepts
 * @param memoryBytesPerSecond peak DRAM bandwidth
 * @param memoryBytes     DRAM capacity
 * @param smCount         streaming multiprocessors (0 when unknown)
 * @param l2Bytes         L2 cache (0 when unknown)
 * @param computeCapability CUDA compute capability, when known
 * @param powerWatts      board or module power (0 when unknown)
 * @param kernelLatencySeconds fixed time one kernel costs beyond its bytes and FLOPs, added to every per-operator
 *                        prediction (not to whole-model ones, see {@code Transformer}); 0 = not modelled: datasheets
 *                        give none, {@code DeviceCeilings} in roofline-cuda measures it; at most
 *                        {@link #MAX_KERNEL_LATENCY_SECONDS} (launches cost microseconds)
 * @param dense           dense peak per precision; a precision absent here has no path of its own on this GPU
 * @param sparse          2:4 structured-sparsity peaks, kept apart and never used by predictions unless asked for
 * @param sources         where each non-ceiling figure comes from
 */
public record Hardware(
        String name,
        List<String> aliases,
        double memoryBytesPerSecond,
        long memoryBytes,
        int smCount,
        long l2Bytes,
        Optional<ComputeCapability> computeCapability,
        double powerWatts,
        double kernelLatencySeconds,
        Map<Precision, Ceiling> dense,
        Map<Precision, Ceiling> sparse,
        Map<Figure, Source> sources) {

    /** The least memory bandwidth accepted, 1 GB/s (bytes per second). */
    public static final double MIN_BYTES_PER_SECOND = 1e9;

    /** The least arithmetic peak accepted, 1 GFLOP/s. */
    public static final double MIN_FLOPS_PER_SECOND = 1e9;

    /** The largest kernel latency accepted, 1 s: a launch costs microseconds, so more is a unit mistake. */
    public static final double MAX_KERNEL_LATENCY_SECONDS = 1;

    /** The figures of a GPU other than its ceilings. */
    public enum Figure {
        MEMORY_BANDWIDTH,
        MEMORY_CAPACITY,
        SM_COUNT,
        L2_SIZE,
        COMPUTE_CAPABILITY,
        POWER,
        KERNEL_LATENCY
    }

    public static final Hardware GB10 = Datasheets.gb10();
    public static final Hardware H100_SXM = Datasheets.h100Sxm();
    public static final Hardware H100_PCIE = Datasheets.h100Pcie();
    public static final Hardware H200 = Datasheets.h200();
    public static final Hardware B200 = Datasheets.b200();
    public static final Hardware GB200 = Datasheets.gb200();
    public static final Hardware A100_SXM_80GB = Datasheets.a100Sxm80();

    private static final List<Hardware> REGISTRY = List.of(GB10, H100_SXM, H100_PCIE, H200, B200, GB200, A100_SXM_80GB);

    public Hardware {
        Checks.notBlank("name", name);
        Checks.notNull("aliases", aliases);
        for (int i = 0; i < aliases.size(); i++) {
            Checks.notBlank("aliases[" + i + "]", aliases.get(i));
        }
        aliases = List.copyOf(aliases);
        Checks.atLeast("memoryBytesPerSecond", memoryBytesPerSecond, MIN_BYTES_PER_SECOND, "1 GB/s");
        if (memoryBytes < 0 || smCount < 0 || l2Bytes < 0 || !(powerWatts >= 0) || Double.isInfinite(powerWatts)) {
            throw new IllegalArgumentException(
                    "memoryBytes, smCount, l2Bytes and powerWatts must be >= 0 (0 = unknown), got " + memoryBytes + ", "
                            + smCount + ", " + l2Bytes + ", " + powerWatts);
        }
        if (!(kernelLatencySeconds >= 0 && kernelLatencySeconds <= MAX_KERNEL_LATENCY_SECONDS)) {
            throw new IllegalArgumentException(
                    "kernelLatencySeconds must be in [0, 1] s (0 = not modelled), got " + kernelLatencySeconds);
        }
        Checks.notNull("computeCapability", computeCapability);
        dense = immutable(Checks.notNull("dense", dense));
        sparse = immutable(Checks.notNull("sparse", sparse));
        sources = Checks.notNull("sources", sources).isEmpty()
                ? Map.of()
                : Collections.unmodifiableMap(new EnumMap<>(sources));
        if (dense.isEmpty()) {
            throw new IllegalArgumentException("hardware '" + name + "' needs at least one dense ceiling");
        }
        dense.forEach((p, c) -> {
            if (c.precision() != p) {
                throw new IllegalArgumentException("dense ceiling for " + p + " is labelled " + c.precision());
            }
        });
    }

    private static Map<Precision, Ceiling> immutable(Map<Precision, Ceiling> m) {
        return m.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(m));
    }

    public static Builder newBuilder(String name) {
        return new Builder(name);
    }

    /** Every GPU in the registry, GB10 first. */
    public static List<Hardware> registry() {
        return REGISTRY;
    }

    /** A registry GPU by name or alias, ignoring case, '-', '_' and spaces ("gb10", "b10", "H100-SXM", "h200"). */
    public static Hardware byName(String name) {
        if (name == null) {
            throw new IllegalArgumentException("hardware must not be null; known: " + knownNames());
        }
        String key = normalize(name);
        for (Hardware h : REGISTRY) {
            if (normalize(h.name).equals(key)
                    || h.aliases.stream().anyMatch(a -> normalize(a).equals(key))) {
                return h;
            }
        }
        throw new IllegalArgumentException("unknown hardware '" + name + "'; known: " + knownNames());
    }

    public static String knownNames() {
        return REGISTRY.stream()
                .map(h -> h.aliases.isEmpty() ? h.name : h.name + " (" + String.join(", ", h.aliases) + ")")
                .collect(Collectors.joining(", "));
    }

    private static String normalize(String s) {
        return s.strip().toLowerCase(Locale.ROOT).replaceAll("[-_\\s]", "");
    }

    /** The dense ceiling of a precision this GPU runs natively. */
    public Optional<Ceiling> ceiling(Precision p) {
        Checks.notNull("precision", p);
        return Optional.ofNullable(dense.get(p));
    }

    /** True when this GPU has a dense path of its own for {@code p} (tensor cores or, for FP32/FP64, CUDA cores). */
    public boolean runsNatively(Precision p) {
        Checks.notNull("precision", p);
        return dense.containsKey(p);
    }

    /** The FP32 CUDA-core ceiling, used for elementwise and reduction work. */
    public Ceiling vectorCeiling() {
        Ceiling c = dense.get(Precision.FP32);
        if (c == null) {
            throw new IllegalStateException("hardware '" + name + "' has no FP32 ceiling for elementwise work");
        }
        return c;
    }

    /**
     * How this GPU multiplies weights of one precision by activations of another: natively when it has a ceiling
     * for the wider operand, otherwise through that precision's fallback chain (e.g. INT4 on Hopper runs as FP16).
     */
    public ComputePath computePath(Precision weights, Precision activations) {
        Checks.notNull("weights", weights);
        Checks.notNull("activations", activations);
        Precision wanted = Fallbacks.wider(weights, activations);
        Ceiling direct = dense.get(wanted);
        if (direct != null) {
            return new ComputePath(weights, activations, direct, true, wanted, "", name);
        }
        for (Precision p : Fallbacks.of(wanted)) {
            Ceiling c = dense.get(p);
            if (c != null) {
                return new ComputePath(weights, activations, c, false, wanted, "", name);
            }
        }
        throw new IllegalStateException("hardware '" + name + "' has no ceiling that can run W " + weights + " x A "
                + activations + "; it has " + dense.keySet());
    }

    /** A copy whose ceiling for {@code c.precision()} is {@code c} (e.g. a measured peak replacing the datasheet's). */
    public Hardware withCeiling(Ceiling c) {
        Checks.notNull("ceiling", c);
        Map<Precision, Ceiling> d = new EnumMap<>(Precision.class);
        d.putAll(dense);
        d.put(c.precision(), c);
        return new Hardware(
                name,
                aliases,
                memoryBytesPerSecond,
                memoryBytes,
                smCount,
                l2Bytes,
                computeCapability,
                powerWatts,
                kernelLatencySeconds,
                d,
                sparse,
                sources);
    }

    /** A copy with another memory bandwidth, e.g. the copy bandwidth measured on the device. */
    public Hardware withMemoryBandwidth(double bytesPerSecond, Source source) {
        Checks.atLeast("bytesPerSecond", bytesPerSecond, MIN_BYTES_PER_SECOND, "1 GB/s");
        return new Hardware(
                name,
                aliases,
                bytesPerSecond,
                memoryBytes,
                smCount,
                l2Bytes,
                computeCapability,
                powerWatts,
                kernelLatencySeconds,
                dense,
                sparse,
                sourcesWith(Figure.MEMORY_BANDWIDTH, source));
    }

    /**
     * A copy whose predictions add {@code seconds} per operator: the fixed cost of one kernel launch, e.g. the intercept
     * of the measured copy time against bytes copied. 0 turns the term off.
     */
    public Hardware withKernelLatency(double seconds, Source source) {
        return new Hardware(
                name,
                aliases,
                memoryBytesPerSecond,
                memoryBytes,
                smCount,
                l2Bytes,
                computeCapability,
                powerWatts,
                seconds,
                dense,
                sparse,
                sourcesWith(Figure.KERNEL_LATENCY, source));
    }

    /** This GPU's sources with {@code f}'s replaced. */
    private Map<Figure, Source> sourcesWith(Figure f, Source source) {
        Map<Figure, Source> s = new EnumMap<>(Figure.class);
        s.putAll(sources);
        s.put(f, Checks.notNull("source", source));
        return s;
    }

    /** The source of a figure, or a USER source saying it was not given. */
    public Source source(Figure f) {
        return sources.getOrDefault(f, Source.user("not given for " + name));
    }

    /** Arithmetic intensity (FLOP/byte) above which work in {@code p} is compute-bound: peak / bandwidth. */
    public double ridgePoint(Precision p) {
        return ceiling(p)
                .map(c -> c.flopsPerSecond() / memoryBytesPerSecond)
                .orElseThrow(() ->
                        new IllegalArgumentException(name + " has no " + p + " ceiling; it has " + dense.keySet()));
    }

    @Override
    public String toString() {
        return name;
    }

    /** Builds custom hardware. Name, bandwidth and at least one ceiling are required. */
    public static final class Builder {
        private final String name;
        private List<String> aliases = List.of();
        private double bandwidth = Double.NaN;
        private long memoryBytes;
        private int smCount;
        private long l2Bytes;
        private ComputeCapability cc;
        private double powerWatts;
        private double kernelLatencySeconds;
        private final Map<Precision, Ceiling> dense = new EnumMap<>(Precision.class);
        private final Map<Precision, Ceiling> sparse = new EnumMap<>(Precision.class);
        private final Map<Figure, Source> sources = new EnumMap<>(Figure.class);

        private Builder(String name) {
            this.name = Checks.notBlank("name", name);
        }

        public Builder aliases(String... aliases) {
            this.aliases = Arrays.asList(Checks.notNull("aliases", aliases).clone());
            return this;
        }

        public Builder memoryBandwidth(double bytesPerSecond, Source source) {
            this.bandwidth =
                    Checks.atLeast("memoryBandwidth bytesPerSecond", bytesPerSecond, MIN_BYTES_PER_SECOND, "1 GB/s");
            sources.put(Figure.MEMORY_BANDWIDTH, Checks.notNull("source", source));
            return this;
        }

        public Builder memoryCapacity(long bytes, Source source) {
            this.memoryBytes = Checks.positive("memoryCapacity bytes", bytes);
            sources.put(Figure.MEMORY_CAPACITY, Checks.notNull("source", source));
            return this;
        }

        public Builder smCount(int sms, Source source) {
            this.smCount = Checks.positive("smCount", sms);
            sources.put(Figure.SM_COUNT, Checks.notNull("source", source));
            return this;
        }

        public Builder l2(long bytes, Source source) {
            this.l2Bytes = Checks.positive("l2 bytes", bytes);
            sources.put(Figure.L2_SIZE, Checks.notNull("source", source));
            return this;
        }

        public Builder computeCapability(String cc, Source source) {
            this.cc = ComputeCapability.parse(cc);
            sources.put(Figure.COMPUTE_CAPABILITY, Checks.notNull("source", source));
            return this;
        }

        public Builder power(double watts, Source source) {
            this.powerWatts = Checks.positive("power watts", watts);
            sources.put(Figure.POWER, Checks.notNull("source", source));
            return this;
        }

        /** The fixed time every kernel costs beyond its bytes and FLOPs (see {@link Hardware#kernelLatencySeconds}). */
        public Builder kernelLatency(double seconds, Source source) {
            this.kernelLatencySeconds = Checks.positive("kernelLatency seconds", seconds);
            sources.put(Figure.KERNEL_LATENCY, Checks.notNull("source", source));
            return this;
        }

        /** A dense peak for {@code p}. */
        public Builder ceiling(Precision p, double flopsPerSecond, Ceiling.Unit unit, Source source) {
            dense.put(Checks.notNull("precision", p), new Ceiling(p, flopsPerSecond, unit, source));
            return this;
        }

        /** A 2:4-sparsity peak for {@code p}, kept apart from the dense ones. */
        public Builder sparseCeiling(Precision p, double flopsPerSecond, Source source) {
            sparse.put(
                    Checks.notNull("precision", p), new Ceiling(p, flopsPerSecond, Ceiling.Unit.TENSOR_CORE, source));
            return this;
        }

        double denseFlops(Precision p) {
            Ceiling c = dense.get(p);
            if (c == null) {
                throw new IllegalStateException("no dense " + p + " ceiling set yet");
            }
            return c.flopsPerSecond();
        }

        public Hardware build() {
            if (Double.isNaN(bandwidth)) {
                throw new IllegalStateException("hardware '" + name + "' needs memoryBandwidth(...)");
            }
            return new Hardware(
                    name,
                    aliases,
                    bandwidth,
                    memoryBytes,
                    smCount,
                    l2Bytes,
                    Optional.ofNullable(cc),
                    powerWatts,
                    kernelLatencySeconds,
                    dense,
                    sparse,
                    sources);
        }
    }
}
