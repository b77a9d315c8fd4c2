package dev.roofline.core.report;

import dev.roofline.core.calibration.CalibratedPrediction;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.parallel.ServingPrediction;
import dev.roofline.core.parallel.ServingSearch;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.recommend.ModelRecommendation;
import dev.roofline.core.recommend.RoleChoice;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One self-contained HTML page per analysis: inline SVG charts and a few lines of inline script (no file, font or
 * library fetched; the page references no URL), readable when printed. Each section comes from the data the text,
 * CSV and Markdown outputs use: the {@link RooflineChart} of a prediction, whose operator points show their
 * {@link OperatorTable} row on hover, and that table, sortable by any column; a recommendation's ranked precisions and
 * reasons; a serving search's {@link ServingChart} and {@link ServingTable}. Every string from a model or config is
 * HTML-escaped.
 *
 * <pre>{@code
 * String page = HtmlReport.titled("Llama-3-8B on GB10")
 *         .withPrediction("Decode, batch 1, 8k tokens", prediction, List.of(Precision.FP16, Precision.NVFP4))
 *         .html();
 * }</pre>
 */
public final class HtmlReport {
    private final String title;
    private final List<String> sections;

    private HtmlReport(String title, List<String> sections) {
        this.title = title;
        this.sections = List.copyOf(sections);
    }

    /** An empty report under {@code title}. */
    public static HtmlReport titled(String title) {
        return new HtmlReport(Checks.notBlank("title", title), List.of());
    }

    /**
     * The roofline of {@code p}'s hardware with {@code ceilings}, each operator of {@code p} a point (hover: its
     * figures), and {@code p}'s operator table.
     */
    public HtmlReport withPrediction(String heading, ModelPrediction p, List<Precision> ceilings) {
        return withPrediction(heading, p, ceilings, List.of());
    }

    /** As {@link #withPrediction(String, ModelPrediction, List)}, with measured kernels drawn beside the operators. */
    public HtmlReport withPrediction(
            String heading, ModelPrediction p, List<Precision> ceilings, List<ChartPoint> measured) {
        return withPrediction(heading, p, ceilings, measured, Map.of());
    }

    /**
     * As {@link #withPrediction(String, ModelPrediction, List, List)}, with each operator named in
     * {@code measuredSeconds} (its measured time over a whole step, every repetition) drawn as a hollow marker beside
     * its predicted point ({@link RooflineChart#withMeasuredOperators}).
     *
     * @throws IllegalArgumentException naming any operator {@code p} does not have
     */
    public HtmlReport withPrediction(
            String heading,
            ModelPrediction p,
            List<Precision> ceilings,
            List<ChartPoint> measured,
            Map<String, Double> measuredSeconds) {
        Checks.notNull("prediction", p);
        RooflineChart chart = RooflineChart.of(p.hardware(), ceilings)
                .withTitle(p.model().name() + " on " + p.hardware().name())
                .withPrediction(p)
                .withMeasuredOperators(p, measuredSeconds, "measured");
        for (ChartPoint m : measured) {
            chart = chart.withPoint(m);
        }
        return with(heading, figure(chart.svg()) + table(OperatorTable.HEADER, OperatorTable.rows(p)));
    }

    /**
     * As {@link #withPrediction}, on the calibration's measured copy bandwidth, each operator's calibrated time (what
     * the measurements say it takes) a hollow marker beside its roofline point, the table's times calibrated and its
     * launches row added.
     */
    public HtmlReport withCalibrated(String heading, CalibratedPrediction p, List<Precision> ceilings) {
        Checks.notNull("prediction", p);
        ModelPrediction base = p.base();
        Map<String, Double> calibrated = new LinkedHashMap<>();
        for (var o : p.calibrated().operators()) {
            calibrated.put(o.name(), o.timeSeconds());
        }
        List<List<String>> rows = OperatorTable.rows(p);
        String chart = RooflineChart.of(base.hardware(), ceilings)
                .withTitle(base.model().name() + " on " + base.hardware().name() + ", "
                        + p.calibration().provenance())
                .withPrediction(base, rows)
                .withMeasuredOperators(base, calibrated, "calibrated")
                .svg();
        return with(heading, figure(chart) + table(OperatorTable.HEADER, rows));
    }

    /**
     * The candidates a recommendation ranked (fastest first) with the tokens per second each gives (the FP16
     * baseline's, calibrated when the recommendation is, times the candidate's speedup) and the weight and KV memory
     * of the recommendation's workload, and why each role got its precision.
     */
    public HtmlReport withRecommendation(String heading, ModelRecommendation r) {
        Checks.notNull("recommendation", r);
        ModelPrediction base = r.fp16();
        Transformer t = Transformer.of(base.model(), base.hardware());
        List<List<String>> ranked = new ArrayList<>();
        for (ModelRecommendation.Ranked c : r.ranked()) {
            Workload w = base.workload()
                    .withWeights(c.choice().weights())
                    .withActivations(c.choice().activations())
                    .withKvCache(c.choice().kvCache());
            ranked.add(List.of(
                    c.choice().weights().displayName(),
                    c.choice().activations().displayName(),
                    c.choice().kvCache().displayName(),
                    String.format(Locale.ROOT, "%.2f", c.speedupVsFp16()),
                    String.format(Locale.ROOT, "%.1f", base.tokensPerSecond() * c.speedupVsFp16()),
                    String.format(Locale.ROOT, "%.2f", t.weightBytes(w) / 1e9),
                    String.format(
                            Locale.ROOT,
                            "%.2f",
                            w.batch() * (double) base.model().kvCacheBytes(w.kvCache(), w.contextTokens()) / 1e9)));
        }
        StringBuilder why = new StringBuilder("<p><b>Recommended:</b> ")
                .append(esc(r.model().choice().weights().displayName()))
                .append(" weights, ")
                .append(esc(r.model().choice().activations().displayName()))
                .append(" activations, ")
                .append(esc(r.model().choice().kvCache().displayName()))
                .append(" KV cache. ")
                .append(esc(r.model().reason()))
                .append("</p>\n<ul>\n");
        for (RoleChoice role : r.roles()) {
            why.append("<li>")
                    .append(esc(role.role().toString().toLowerCase(Locale.ROOT)))
                    .append(": ")
                    .append(esc(role.chosen().displayName()))
                    .append(" (")
                    .append(esc(role.reason()))
                    .append(")</li>\n");
        }
        why.append("</ul>\n");
        List<String> header =
                List.of("weights", "activations", "KV cache", "speedup vs FP16", "tokens/s", "weights GB", "KV GB");
        return with(heading, why + table(header, ranked));
    }

    /** A serving search's Pareto chart (the winner filled) and its Pareto set as a table. */
    public HtmlReport withServing(String heading, ServingSearch.Result r) {
        Checks.notNull("result", r);
        List<ServingPrediction> pareto = r.pareto();
        if (pareto.isEmpty()) {
            return with(heading, "<p>No setup meets both targets (" + r.tried() + " tried).</p>\n");
        }
        return with(
                heading,
                figure(ServingChart.svg(pareto, r.winner())) + table(ServingTable.HEADER, ServingTable.rows(pareto)));
    }

    private HtmlReport with(String heading, String body) {
        Checks.notBlank("heading", heading);
        List<String> s = new ArrayList<>(sections);
        s.add("<section>\n<h2>" + esc(heading) + "</h2>\n" + body + "</section>\n");
        return new HtmlReport(title, s);
    }

    /** The page. */
    public String html() {
        StringBuilder h = new StringBuilder(64 * 1024);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(esc(title))
                .append("</title>\n<style>\n")
                .append(STYLE)
                .append("</style>\n</head>\n<body>\n<h1>")
                .append(esc(title))
                .append(
                        "</h1>\n<p class=\"note\">time = max(bytes / bandwidth, FLOPs / peak) per operator; hover a point"
                                + " for its figures; click a column heading to sort.</p>\n");
        for (String s : sections) {
            h.append(s);
        }
        return h.append("<script>\n")
                .append(SCRIPT)
                .append("</script>\n</body>\n</html>\n")
                .toString();
    }

    /** Writes {@link #html()} to {@code file} through a temporary file beside it, so no half page is left. */
    public void write(Path file) {
        Checks.notNull("file", file);
        Path dir = file.toAbsolutePath().getParent();
        try {
            Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".partial");
            // a page is for sharing: readable by all, as a file the user wrote directly would be (not the 0600 of a
            // temporary file)
            if (Files.getFileStore(tmp).supportsFileAttributeView("posix")) {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
            }
            try {
                Files.writeString(tmp, html(), StandardCharsets.UTF_8);
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write report " + file + ": " + e.getMessage(), e);
        }
    }

    /** An SVG inlined into HTML, where it needs no namespace declaration (so the page names no URL at all). */
    private static String figure(String svg) {
        return "<figure>\n" + svg.replace(" xmlns=\"http://www.w3.org/2000/svg\"", "") + "</figure>\n";
    }

    private static String table(List<String> header, List<List<String>> rows) {
        StringBuilder t = new StringBuilder("<table class=\"sortable\">\n<thead><tr>");
        for (String c : header) {
            t.append("<th>").append(esc(c)).append("</th>");
        }
        t.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : rows) {
            t.append("<tr>");
            for (String c : row) {
                t.append("<td>").append(esc(c)).append("</td>");
            }
            t.append("</tr>\n");
        }
        return t.append("</tbody>\n</table>\n").toString();
    }

    /** Text as HTML: the five characters that could open markup or end an attribute, escaped. */
    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    private static final String STYLE = """
            body { font-family: sans-serif; margin: 2em; color: #222; }
            h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
            .note { color: #555; }
            figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
            table { border-collapse: collapse; font-size: 0.85em; margin: 1em 0; }
            th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
            td:first-child, th:first-child { text-align: left; }
            th { background: #f0f0f0; cursor: pointer; }
            @media print { th { cursor: auto; } section { break-inside: avoid; } }
            """;

    /**
     * Sorts a table by the clicked column: numerically where both cells are whole numbers (no unit), else as text; a
     * second click on the same heading reverses, a click on another starts ascending.
     */
    private static final String SCRIPT = """
            function cellValue(text) {
              var t = text.trim();
              return /^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(t) ? Number(t) : NaN;
            }
            document.querySelectorAll('table.sortable').forEach(function (table) {
              var heads = table.querySelectorAll('th');
              heads.forEach(function (th, col) {
                th.addEventListener('click', function () {
                  var body = table.tBodies[0];
                  var up = th.dataset.order !== 'up';
                  heads.forEach(function (h) { delete h.dataset.order; });
                  th.dataset.order = up ? 'up' : 'down';
                  var rows = Array.prototype.slice.call(body.rows);
                  rows.sort(function (a, b) {
                    var x = a.cells[col].textContent, y = b.cells[col].textContent;
                    var nx = cellValue(x), ny = cellValue(y);
                    var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
                    return up ? c : -c;
                  });
                  rows.forEach(function (r) { body.appendChild(r); });
                });
              });
            });
            """;
}
