package dev.roofline.core.report;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.OperatorTime;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The per-operator table of a model prediction, as Markdown or CSV. Totals are per forward pass (count included).
 *
 * <pre>{@code
 * String md = OperatorTable.markdown(prediction);
 * }</pre>
 */
public final class OperatorTable {
    private OperatorTable() {}

    public static final List<String> HEADER =
            List.of("operator", "count", "FLOPs", "bytes", "FLOP/B", "bound", "time us", "share %", "compute path");

    /** One row per operator, cells as text, in the order of {@link #HEADER}. */
    public static List<List<String>> rows(ModelPrediction p) {
        Checks.notNull("prediction", p);
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
                    fmt("%.2f", 100 * p.share(o)),
                    o.prediction().computePath().executedAs().displayName()
                            + (o.prediction().computePath().nativePath() ? "" : " (fallback)")));
        }
        return rows;
    }

    public static String markdown(ModelPrediction p) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", HEADER)).append(" |\n|");
        for (int i = 0; i < HEADER.size(); i++) {
            sb.append(i == 0 || i == 5 || i == 8 ? " --- |" : " ---: |");
        }
        sb.append('\n');
        for (List<String> r : rows(p)) {
            sb.append("| ")
                    .append(String.join(
                            " | ", r.stream().map(c -> c.replace("|", "\\|")).toList()))
                    .append(" |\n");
        }
        sb.append(
                fmt("| **total** | | %d | %d | | | %.3f | 100.00 | |%n", p.flops(), p.bytes(), p.timeSeconds() * 1e6));
        return sb.toString();
    }

    /** RFC 4180 CSV: a header line, then one line per operator. */
    public static String csv(ModelPrediction p) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.join(",", HEADER)).append("\r\n");
        for (List<String> r : rows(p)) {
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
