package dev.roofline.core.report;

import dev.roofline.core.calibration.CalibratedPrediction;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.OperatorTime;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The per-operator table of a model prediction, plain or calibrated, as Markdown or CSV. Totals are per forward pass
 * (count included).
 *
 * <pre>{@code
 * String md = OperatorTable.markdown(prediction);
 * }</pre>
 */
public final class OperatorTable {
    private OperatorTable() {}

    public static final List<String> HEADER =
            List.of("operator", "count", "FLOPs", "bytes", "FLOP/B", "bound", "time us", "share %", "compute path");

    /** The name of the row {@link #rows(CalibratedPrediction)} adds for the engine's kernel launches. */
    public static final String LAUNCHES = "kernel launches";

    /** One row per operator, cells as text, in the order of {@link #HEADER}. */
    public static List<List<String>> rows(ModelPrediction p) {
        Checks.notNull("prediction", p);
        return rows(p, p::share);
    }

    /**
     * One row per calibrated operator (its time includes its class's fixed time; its bound is the larger roofline
     * term), then a {@value #LAUNCHES} row (count = launches, bound "launch"): shares are of the whole calibrated time,
     * so the rows add up to it.
     */
    public static List<List<String>> rows(CalibratedPrediction p) {
        Checks.notNull("prediction", p);
        List<List<String>> rows = rows(p.calibrated(), p::share);
        rows.add(List.of(
                LAUNCHES,
                Long.toString(p.launches()),
                "0",
                "0",
                "",
                "launch",
                fmt("%.3f", p.launchSeconds() * 1e6),
                fmt("%.2f", 100 * p.launchSeconds() / p.timeSeconds()),
                ""));
        return rows;
    }

    private static List<List<String>> rows(ModelPrediction p, ToDoubleFunction<OperatorTime> share) {
        List<List<String>> rows = new ArrayList<>();
        for (OperatorTime o : p.operators()) {
            rows.add(List.of(
                    o.name(),
                    Long.toString(o.count()),
                    Long.toString(o.flops()),
                    Long.toString(o.bytes()),
                    fmt("%.4g", o.prediction().flopsPerByte()),
                    o.prediction().bound().name().toLowerCase(Locale.ROOT),
                    fmt("%.3f", o.timeSeconds() * 1e6),
                    fmt("%.2f", 100 * share.applyAsDouble(o)),
                    o.prediction().computePath().executedAs().displayName()
                            + (o.prediction().computePath().nativePath() ? "" : " (fallback)")));
        }
        return rows;
    }

    public static String markdown(ModelPrediction p) {
        return markdown(rows(p), p, p.timeSeconds());
    }

    /** As {@link #markdown(ModelPrediction)}, with the calibrated times and the launches row. */
    public static String markdown(CalibratedPrediction p) {
        return markdown(rows(p), p.calibrated(), p.timeSeconds());
    }

    private static String markdown(List<List<String>> rows, ModelPrediction p, double totalSeconds) {
        return markdownTable(HEADER, Set.of(0, 5, 8), rows)
                + fmt("| **total** | | %d | %d | | | %.3f | 100.00 | |%n", p.flops(), p.bytes(), totalSeconds * 1e6);
    }

    /** A Markdown table of {@code rows} under {@code header}: the {@code text} columns left-aligned, the rest right. */
    static String markdownTable(List<String> header, Set<Integer> text, List<List<String>> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
        for (int i = 0; i < header.size(); i++) {
            sb.append(text.contains(i) ? " --- |" : " ---: |");
        }
        sb.append('\n');
        for (List<String> r : rows) {
            sb.append("| ")
                    .append(String.join(
                            " | ", r.stream().map(c -> c.replace("|", "\\|")).toList()))
                    .append(" |\n");
        }
        return sb.toString();
    }

    /** RFC 4180 CSV: a header line, then one line per operator. */
    public static String csv(ModelPrediction p) {
        return csv(rows(p));
    }

    /** As {@link #csv(ModelPrediction)}, with the calibrated times and the launches row. */
    public static String csv(CalibratedPrediction p) {
        return csv(rows(p));
    }

    private static String csv(List<List<String>> rows) {
        return csv(HEADER, rows);
    }

    /** RFC 4180 CSV of {@code rows} under {@code header}. */
    static String csv(List<String> header, List<List<String>> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.join(",", header)).append("\r\n");
        for (List<String> r : rows) {
            sb.append(String.join(",", r.stream().map(OperatorTable::csvCell).toList()))
                    .append("\r\n");
        }
        return sb.toString();
    }

    static String csvCell(String c) {
        return c.contains(",") || c.contains("\"") || c.contains("\n") ? "\"" + c.replace("\"", "\"\"") + "\"" : c;
    }

    private static String fmt(String f, Object... v) {
        return String.format(Locale.ROOT, f, v);
    }
}
