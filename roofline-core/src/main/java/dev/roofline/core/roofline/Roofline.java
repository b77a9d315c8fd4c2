package dev.roofline.core.roofline;

import dev.roofline.core.hardware.Ceiling;
import dev.roofline.core.hardware.ComputePath;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;

/**
 * Prices operators on one GPU: {@code time = max(bytes / bandwidth, flops / peak)}, plus the hardware's
 * {@link Hardware#kernelLatencySeconds() kernel latency} when it has one (measured hardware; datasheets have none).
 *
 * <pre>{@code
 * Prediction p = Roofline.on(Hardware.GB10).predict(Gemm.gemv(4096, 4096));
 * p.timeMicros();   // (4096*4096 + 4096 + 4096) * 2 B / 273 GB/s = 122.97 µs
 * p.bound();        // MEMORY
 * }</pre>
 *
 * The efficiency factors scale the bandwidth and peak only; a kernel latency is added unscaled, so factors fitted to
 * measurements without a latency term need fitting again once the hardware carries one.
 *
 * Each efficiency is in (0, 1], and what it leaves must still be physical as {@link Hardware} requires of its figures:
 * bandwidth × bandwidthEfficiency at least {@link Hardware#MIN_BYTES_PER_SECOND} (1 GB/s), and every dense peak ×
 * computeEfficiency at least {@link Hardware#MIN_FLOPS_PER_SECOND} (1 GFLOP/s). An efficiency of 1e-300 is refused
 * rather than priced into a time hundreds of digits long.
 *
 * @param hardware              the GPU
 * @param bandwidthEfficiency   fraction of the peak bandwidth reached, in (0, 1]
 * @param computeEfficiency     fraction of the arithmetic peak reached, in (0, 1]
 * @param sparse                use 2:4-sparsity ceilings where the GPU has them (off by default)
 */
public record Roofline(Hardware hardware, double bandwidthEfficiency, double computeEfficiency, boolean sparse) {

    public Roofline {
        Checks.notNull("hardware", hardware);
        Checks.fraction("bandwidthEfficiency", bandwidthEfficiency);
        Checks.fraction("computeEfficiency", computeEfficiency);
        double bw = hardware.memoryBytesPerSecond() * bandwidthEfficiency;
        if (bw < Hardware.MIN_BYTES_PER_SECOND) {
            throw new IllegalArgumentException("bandwidthEfficiency " + bandwidthEfficiency + " leaves "
                    + hardware.name() + " " + bw + " B/s of memory bandwidth, below the physical floor of 1 GB/s");
        }
        for (Ceiling c : hardware.dense().values()) {
            double peak = c.flopsPerSecond() * computeEfficiency;
            if (peak < Hardware.MIN_FLOPS_PER_SECOND) {
                throw new IllegalArgumentException(
                        "computeEfficiency " + computeEfficiency + " leaves " + hardware.name()
                                + "'s " + c.precision().displayName() + " peak at " + peak
                                + " FLOP/s, below the physical floor of 1 GFLOP/s");
            }
        }
    }

    /** Datasheet ceilings, no efficiency discount, dense peaks. */
    public static Roofline on(Hardware hardware) {
        return new Roofline(hardware, 1.0, 1.0, false);
    }

    public Roofline withEfficiency(double bandwidth, double compute) {
        return new Roofline(hardware, bandwidth, compute, sparse);
    }

    /** Prices tensor-core work at the 2:4 structured-sparsity peak (only valid for 2:4-pruned weights). */
    public Roofline withSparsity() {
        return new Roofline(hardware, bandwidthEfficiency, computeEfficiency, true);
    }

    public Prediction predict(Operator op) {
        Checks.notNull("operator", op);
        ComputePath path =
                switch (op) {
                    case Gemm g -> hardware.computePath(g.weights(), g.activations());
                    case GroupedGemm g -> hardware.computePath(g.weights(), g.activations());
                    // Q·Kᵀ and score·V run on tensor cores with K and V as the stored operand
                    case Attention a -> hardware.computePath(a.kvCache(), a.activations());
                    case Elementwise e -> {
                        Ceiling c = hardware.vectorCeiling();
                        yield new ComputePath(
                                Precision.FP32,
                                Precision.FP32,
                                c,
                                true,
                                Precision.FP32,
                                "elementwise",
                                hardware.name());
                    }
                };
        Ceiling ceiling = path.ceiling();
        if (sparse && ceiling.unit() == Ceiling.Unit.TENSOR_CORE) {
            Ceiling s = hardware.sparse().get(ceiling.precision());
            if (s != null) {
                ceiling = s;
                path = path.at(s, "2:4 sparse peak");
            }
        }
        double bw = hardware.memoryBytesPerSecond() * bandwidthEfficiency;
        double peak = ceiling.flopsPerSecond() * computeEfficiency;
        return new Prediction(
                op, hardware, path, bw, peak, op.bytes() / bw, op.flops() / peak, hardware.kernelLatencySeconds());
    }
}
