package dev.roofline.core.report;

import dev.roofline.core.hardware.Ceiling;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Source;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.OperatorTime;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * An SVG roofline chart: log-log axes with decade ticks and labels, the bandwidth slope, one horizontal ceiling per
 * precision (each starting at its ridge point), labelled operator points, optional measured points and a legend. A
 * memory bandwidth measured on the device ({@link Source.Kind#MEASURED}, e.g. a calibration's copy bandwidth) is
 * labelled as measured. Measured times of a prediction's operators are drawn as hollow circles at the same intensity,
 * each joined to its filled, predicted circle.
 *
 * <pre>{@code
 * String svg = RooflineChart.of(Hardware.GB200, List.of(Precision.FP16, Precision.FP8_E4M3, Precision.NVFP4))
 *         .withPrediction(prediction).withPoint(new ChartPoint("measured gemv", 0.98, 2.1e12, true))
 *         .withMeasuredOperators(prediction, Map.of("q_proj", 48e-6, "attention", 61e-6)).svg();
 * }</pre>
 */
public record RooflineChart(Hardware hardware, List<Precision> precisions, List<ChartPoint> points, String title) {

    private static final int W = 1040, H = 660, LEFT = 110, RIGHT = 300, TOP = 50, BOTTOM = 70;
    private static final String[] COLORS = {
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"
    };

    public RooflineChart {
        Checks.notNull("hardware", hardware);
        precisions = List.copyOf(precisions);
        points = List.copyOf(points);
        Checks.notNull("title", title);
        for (Precision p : precisions) {
            if (!hardware.runsNatively(p)) {
                throw new IllegalArgumentException(hardware.name() + " has no " + p + " ceiling; it has "
                        + hardware.dense().keySet());
            }
        }
    }

    /** A chart of the given ceilings with no points yet. */
    public static RooflineChart of(Hardware hw, List<Precision> precisions) {
        return new RooflineChart(hw, precisions, List.of(), "Roofline: " + hw.name());
    }

    public RooflineChart withTitle(String t) {
        return new RooflineChart(hardware, precisions, points, t);
    }

    public RooflineChart withPoint(ChartPoint p) {
        List<ChartPoint> ps = new ArrayList<>(points);
        ps.add(Checks.notNull("point", p));
        return new RooflineChart(hardware, precisions, ps, title);
    }

    /**
     * One predicted point per operator that does arithmetic: its intensity and the rate the roofline says it attains,
     * its detail the operator table's row ({@link OperatorTable#rows}: count, FLOPs, bytes, intensity, bound, time,
     * share, compute path).
     */
    public RooflineChart withPrediction(ModelPrediction prediction) {
        return withPrediction(prediction, OperatorTable.rows(prediction));
    }

    /**
     * As {@link #withPrediction(ModelPrediction)}, each point's detail its row of {@code rows} (one per operator of
     * {@code prediction}, in order, as {@link OperatorTable#rows} gives them; a calibrated table's rows, say).
     */
    public RooflineChart withPrediction(ModelPrediction prediction, List<List<String>> rows) {
        if (rows.size() < prediction.operators().size()) {
            throw new IllegalArgumentException(
                    "rows: " + rows.size() + " for " + prediction.operators().size() + " operators");
        }
        RooflineChart c = this;
        for (int i = 0; i < prediction.operators().size(); i++) {
            OperatorTime o = prediction.operators().get(i);
            if (o.flops() == 0) {
                continue; // a pure copy (embedding gather) has no place on a log intensity axis
            }
            c = c.withPoint(new ChartPoint(
                    o.name(),
                    o.prediction().flopsPerByte(),
                    o.prediction().attainableFlopsPerSecond(),
                    ChartPoint.Marker.PREDICTED,
                    detail(rows.get(i))));
        }
        return c;
    }

    /** An operator table row as "count: 32, FLOPs: …" (its first cell, the name, is the point's label). */
    private static String detail(List<String> row) {
        StringBuilder d = new StringBuilder();
        for (int j = 1; j < row.size(); j++) {
            d.append(j > 1 ? ", " : "")
                    .append(OperatorTable.HEADER.get(j))
                    .append(": ")
                    .append(row.get(j));
        }
        return d.toString();
    }

    /**
     * One hollow point per operator of {@code prediction} named in {@code measuredSeconds}: the operator's intensity,
     * and its FLOPs over the measured seconds of the whole step (every repetition, as {@link OperatorTime#timeSeconds()}
     * counts them). Operators without FLOPs (the embedding gather) have no place on the log axis and are left out, as
     * {@link #withPrediction} leaves them out.
     *
     * @throws IllegalArgumentException naming every name {@code prediction} has no operator for, or a time that is not
     *                                  a finite number &gt; 0
     */
    public RooflineChart withMeasuredOperators(ModelPrediction prediction, Map<String, Double> measuredSeconds) {
        return withMeasuredOperators(prediction, measuredSeconds, "measured");
    }

    /**
     * As {@link #withMeasuredOperators(ModelPrediction, Map)}, the hollow markers' hover saying {@code kind} and the
     * time ("measured: 3000.000 us", "calibrated: …"), and the legend {@code kind (hollow)}.
     */
    public RooflineChart withMeasuredOperators(
            ModelPrediction prediction, Map<String, Double> measuredSeconds, String kind) {
        Checks.notBlank("kind", kind);
        Checks.notNull("prediction", prediction);
        Checks.notNull("measuredSeconds", measuredSeconds);
        Set<String> names = new HashSet<>();
        prediction.operators().forEach(o -> names.add(o.name()));
        List<String> unknown = measuredSeconds.keySet().stream()
                .filter(n -> !names.contains(n))
                .sorted()
                .toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("no operator " + unknown + " in "
                    + prediction.model().name() + "; have "
                    + prediction.operators().stream().map(OperatorTime::name).toList());
        }
        RooflineChart c = this;
        for (OperatorTime o : prediction.operators()) {
            Double seconds = measuredSeconds.get(o.name());
            if (seconds == null || o.flops() == 0) {
                continue;
            }
            double s = Checks.positive("measured seconds of " + o.name(), seconds);
            c = c.withPoint(new ChartPoint(
                    o.name(),
                    o.prediction().flopsPerByte(),
                    o.flops() / s,
                    ChartPoint.Marker.MEASURED_OPERATOR,
                    f("%s: %.3f us", kind, s * 1e6)));
        }
        return c;
    }

    public String svg() {
        double bw = hardware.memoryBytesPerSecond();
        double maxPeak = 0;
        double minPeak = Double.MAX_VALUE;
        for (Precision p : precisions) {
            double f = hardware.ceiling(p).orElseThrow().flopsPerSecond();
            maxPeak = Math.max(maxPeak, f);
            minPeak = Math.min(minPeak, f);
        }
        double xMinData = 1,
                xMaxData = maxPeak > 0 ? maxPeak / bw * 4 : 1000,
                yMinData = maxPeak > 0 ? minPeak / 100 : 1e12;
        for (ChartPoint p : points) {
            xMinData = Math.min(xMinData, p.flopsPerByte());
            xMaxData = Math.max(xMaxData, p.flopsPerByte());
            yMinData = Math.min(yMinData, p.flopsPerSecond());
            maxPeak = Math.max(maxPeak, p.flopsPerSecond());
        }
        Axes ax = new Axes(
                Math.floor(Math.log10(xMinData)),
                Math.ceil(Math.log10(xMaxData * 1.01)),
                Math.floor(Math.log10(yMinData)),
                Math.ceil(Math.log10(maxPeak * 1.01)));
        StringBuilder s = new StringBuilder();
        s.append(f(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">%n",
                W, H, W, H));
        s.append(f("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", W, H));
        s.append(f("<text x=\"%d\" y=\"28\" font-size=\"18\" font-weight=\"bold\">%s</text>%n", LEFT, esc(title)));
        grid(s, ax);
        List<String> legend = new ArrayList<>();
        // bandwidth slope from the left edge to the highest ceiling
        double xTop = Math.min(Math.pow(10, ax.x1), maxPeak / bw);
        s.append(f(
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-width=\"2.5\"/>%n",
                ax.x(Math.pow(10, ax.x0)),
                ax.y(Math.max(bw * Math.pow(10, ax.x0), Math.pow(10, ax.y0))),
                ax.x(xTop),
                ax.y(bw * xTop)));
        boolean measuredBandwidth =
                hardware.source(Hardware.Figure.MEMORY_BANDWIDTH).kind() == Source.Kind.MEASURED;
        legend.add(f(
                "<line x1=\"0\" y1=\"0\" x2=\"24\" y2=\"0\" stroke=\"black\" stroke-width=\"2.5\"/><text x=\"32\" y=\"4\" font-size=\"12\">DRAM %.0f GB/s%s</text>",
                bw / 1e9, measuredBandwidth ? ", measured copy" : ""));
        for (int i = 0; i < precisions.size(); i++) {
            Ceiling c = hardware.ceiling(precisions.get(i)).orElseThrow();
            String color = COLORS[i % COLORS.length];
            double ridge = c.flopsPerSecond() / bw;
            s.append(f(
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>%n",
                    ax.x(ridge), ax.y(c.flopsPerSecond()), ax.x(Math.pow(10, ax.x1)), ax.y(c.flopsPerSecond()), color));
            s.append(f(
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-dasharray=\"3,4\"/>%n",
                    ax.x(ridge), ax.y(c.flopsPerSecond()), ax.x(ridge), H - BOTTOM, color));
            legend.add(f(
                    "<line x1=\"0\" y1=\"0\" x2=\"24\" y2=\"0\" stroke=\"%s\" stroke-width=\"2\"/><text x=\"32\" y=\"4\" font-size=\"12\">%s %s (ridge %.0f)</text>",
                    color, esc(c.precision().displayName()), tflops(c.flopsPerSecond()), ridge));
        }
        ChartMarks.draw(s, points, ax);
        legend.add(
                "<circle cx=\"12\" cy=\"0\" r=\"4\" fill=\"#444\"/><text x=\"32\" y=\"4\" font-size=\"12\">predicted operator</text>");
        if (points.stream().anyMatch(p -> p.marker() == ChartPoint.Marker.MEASURED)) {
            legend.add(
                    "<rect x=\"7\" y=\"-5\" width=\"10\" height=\"10\" fill=\"#e6550d\"/><text x=\"32\" y=\"4\" font-size=\"12\">measured</text>");
        }
        if (points.stream().anyMatch(p -> p.marker() == ChartPoint.Marker.MEASURED_OPERATOR)) {
            legend.add(f(
                    "<circle cx=\"12\" cy=\"0\" r=\"5\" fill=\"none\" stroke=\"#444\" stroke-width=\"1.5\"/><text x=\"32\" y=\"4\" font-size=\"12\">%s (hollow)</text>",
                    esc(hollowKind())));
        }
        int lx = W - RIGHT + 20;
        s.append(f(
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"white\" stroke=\"#999\"/>%n",
                lx - 8, TOP, RIGHT - 30, 16 + 22 * legend.size()));
        for (int i = 0; i < legend.size(); i++) {
            s.append(f("<g transform=\"translate(%d,%d)\">%s</g>%n", lx, TOP + 20 + 22 * i, legend.get(i)));
        }
        return s.append("</svg>\n").toString();
    }

    private void grid(StringBuilder s, Axes ax) {
        int x0 = LEFT, x1 = W - RIGHT, y0 = TOP, y1 = H - BOTTOM;
        s.append(f(
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>%n",
                x0, y0, x1 - x0, y1 - y0));
        for (int e = (int) ax.x0; e <= ax.x1; e++) {
            double x = ax.x(Math.pow(10, e));
            s.append(f("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n", x, y0, x, y1));
            s.append(f("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>%n", x, y1, x, y1 + 6));
            s.append(f(
                    "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>%n",
                    x, y1 + 20, decade(e)));
        }
        for (int e = (int) ax.y0; e <= ax.y1; e++) {
            double y = ax.y(Math.pow(10, e));
            s.append(f("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n", x0, y, x1, y));
            s.append(f("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\"/>%n", x0 - 6, y, x0, y));
            s.append(f(
                    "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">%s</text>%n",
                    x0 - 9, y + 4, tflops(Math.pow(10, e))));
        }
        s.append(f(
                "<text x=\"%d\" y=\"%d\" font-size=\"14\" text-anchor=\"middle\">arithmetic intensity (FLOP/byte)</text>%n",
                (x0 + x1) / 2, H - 22));
        s.append(f(
                "<text transform=\"translate(20,%d) rotate(-90)\" font-size=\"14\" text-anchor=\"middle\">attainable FLOP/s</text>%n",
                (y0 + y1) / 2));
    }

    /** Log-log mapping of decades [x0, x1] × [y0, y1] onto the plot area. */
    record Axes(double x0, double x1, double y0, double y1) {
        double x(double v) {
            return LEFT + (Math.log10(v) - x0) / (x1 - x0) * (W - RIGHT - LEFT);
        }

        double y(double v) {
            return H - BOTTOM - (Math.log10(v) - y0) / (y1 - y0) * (H - BOTTOM - TOP);
        }
    }

    static String decade(int e) {
        return e >= 0 && e <= 6 ? String.valueOf((long) Math.pow(10, e)) : "1e" + e;
    }

    /** "2.5 PFLOPS", "100 TFLOPS", "31 TFLOPS". */
    static String tflops(double v) {
        double scaled = v >= 1e15 ? v / 1e15 : v >= 1e12 ? v / 1e12 : v / 1e9;
        String unit = v >= 1e15 ? " PFLOPS" : v >= 1e12 ? " TFLOPS" : " GFLOPS";
        String n = f("%.3g", scaled);
        return (n.contains(".") && !n.contains("e") ? n.replaceAll("0+$", "").replaceAll("\\.$", "") : n) + unit;
    }

    /** What the hollow markers are: the kind their details name ("measured", "calibrated"), else "measured". */
    private String hollowKind() {
        return points.stream()
                .filter(p -> p.marker() == ChartPoint.Marker.MEASURED_OPERATOR
                        && p.detail().contains(":"))
                .map(p -> p.detail().substring(0, p.detail().indexOf(':')))
                .findFirst()
                .orElse("measured");
    }

    static String esc(String t) {
        return HtmlReport.esc(t);
    }

    static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }
}
