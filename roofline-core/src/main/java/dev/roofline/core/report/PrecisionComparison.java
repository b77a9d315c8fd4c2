package dev.roofline.core.report;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.roofline.Roofline;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One GEMM shape priced in several weight precisions, side by side, with the speedup over a baseline: the roofline
 * calculator's table ({@code roofline predict}).
 *
 * <pre>{@code
 * String text = PrecisionComparison.of(Roofline.on(Hardware.GB10), Gemm.gemv(4096, 4096)).text();
 * }</pre>
 *
 * By default each row uses its weight precision for the activations too; {@link #withActivations} pins them
 * (weight-only quantization). The shape's output precision is kept.
 */
public final class PrecisionComparison {
    /** The calculator's default rows: FP16, FP8 E4M3, INT8, INT4, NVFP4 and MXFP4. */
    public static final List<Precision> DEFAULT_PRECISIONS = List.of(
            Precision.FP16, Precision.FP8_E4M3, Precision.INT8, Precision.INT4, Precision.NVFP4, Precision.MXFP4);
    /** The calculator's default shape: a 4096×4096 GEMV, one decode token through one weight matrix. */
    public static final Gemm DEFAULT_SHAPE = Gemm.gemv(4096, 4096);

    private final Roofline roofline;
    private final Gemm shape;
    private final List<Precision> precisions;
    private final Precision pinnedActivations; // null: each row's weight precision
    private final Precision baseline;

    private PrecisionComparison(
            Roofline roofline,
            Gemm shape,
            List<Precision> precisions,
            Precision pinnedActivations,
            Precision baseline) {
        this.roofline = Checks.notNull("roofline", roofline);
        this.shape = Checks.notNull("shape", shape);
        this.precisions = List.copyOf(Checks.notNull("precisions", precisions));
        this.pinnedActivations = pinnedActivations;
        this.baseline = Checks.notNull("baseline", baseline);
        if (this.precisions.isEmpty()) {
            throw new IllegalArgumentException("precisions must not be empty");
        }
    }

    /** The shape on this roofline in {@link #DEFAULT_PRECISIONS}, compared with FP16. */
    public static PrecisionComparison of(Roofline roofline, Gemm shape) {
        return new PrecisionComparison(roofline, shape, DEFAULT_PRECISIONS, null, Precision.FP16);
    }

    /** The calculator's default view on this hardware: {@link #DEFAULT_SHAPE} in {@link #DEFAULT_PRECISIONS}. */
    public static PrecisionComparison defaults(Hardware hardware) {
        return of(Roofline.on(hardware), DEFAULT_SHAPE);
    }

    /** One row per weight precision, in this order. */
    public PrecisionComparison withPrecisions(List<Precision> weights) {
        return new PrecisionComparison(roofline, shape, weights, pinnedActivations, baseline);
    }

    /** Every row with activations in {@code p} (weight-only quantization), instead of each row's weight precision. */
    public PrecisionComparison withActivations(Precision p) {
        return new PrecisionComparison(roofline, shape, precisions, Checks.notNull("activations", p), baseline);
    }

    /** The precision the speedup column compares with. */
    public PrecisionComparison withBaseline(Precision p) {
        return new PrecisionComparison(roofline, shape, precisions, pinnedActivations, p);
    }

    /** A title line, the table, the formula, a note per fallback path and the bandwidth's source. */
    public String text() {
        Hardware hw = roofline.hardware();
        Prediction base = roofline.predict(operands(baseline));
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "%s M=%d N=%d K=%d on %s: %.0f GB/s%s; output %s%n",
                shape.m() == 1 ? "GEMV" : "GEMM",
                shape.m(),
                shape.n(),
                shape.k(),
                hw.name(),
                hw.memoryBytesPerSecond() / 1e9 * roofline.bandwidthEfficiency(),
                roofline.bandwidthEfficiency() < 1 || roofline.computeEfficiency() < 1
                        ? String.format(
                                Locale.ROOT,
                                " (efficiency %.2f bandwidth, %.2f compute)",
                                roofline.bandwidthEfficiency(),
                                roofline.computeEfficiency())
                        : "",
                shape.output().displayName()));
        TextTable t = new TextTable(
                "precision",
                "bytes",
                "FLOPs",
                "FLOP/B",
                "bound",
                "time us",
                "TFLOPS",
                "vs " + baseline.shortName().toUpperCase(Locale.ROOT),
                "compute path");
        List<String> notes = new ArrayList<>();
        for (Precision p : precisions) {
            Prediction pr = roofline.predict(operands(p));
            t.add(
                    p.displayName(),
                    Long.toString(pr.bytes()),
                    Long.toString(pr.flops()),
                    fmt("%.2f", pr.flopsPerByte()),
                    pr.bound().name().toLowerCase(Locale.ROOT),
                    fmt("%.2f", pr.timeMicros()),
                    fmt("%.2f", pr.attainableFlopsPerSecond() / 1e12),
                    fmt("%.2fx", pr.speedupOver(base)),
                    pr.computePath().executedAs().displayName()
                            + (pr.computePath().nativePath() ? "" : " (fallback)"));
            if (!pr.computePath().nativePath()) {
                notes.add(p.displayName() + ": " + pr.computePath().method());
            }
        }
        sb.append(t.render());
        // datasheet hardware has no kernel latency, so the formula has no latency term here
        sb.append("time = max(bytes / bandwidth, FLOPs / peak); bytes include block scales; dense peaks.\n");
        for (String n : notes) {
            sb.append("note: ").append(n).append('\n');
        }
        sb.append("bandwidth: ")
                .append(hw.source(Hardware.Figure.MEMORY_BANDWIDTH))
                .append('\n');
        return sb.toString();
    }

    private Gemm operands(Precision weights) {
        return shape.withWeights(weights).withActivations(pinnedActivations == null ? weights : pinnedActivations);
    }

    private static String fmt(String f, double v) {
        return String.format(Locale.ROOT, f, v);
    }
}
