package dev.roofline.cuda.bench;

import dev.roofline.core.energy.OperationEnergy;
import dev.roofline.core.energy.PowerMeter;
import dev.roofline.core.roofline.Gemm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Renders benchmark results as aligned text, CSV or Markdown: any {@link Table} with {@link #render}, and the
 * cuBLASLt sweep's predicted-vs-measured table with {@link #gemm}. Every figure is read from the {@link Measurement}
 * (predictions included, computed once when it was measured); nothing is predicted again here.
 */
public final class Report {
    private static final String TEXT_GAP = "  ";

    private Report() {}

    /** {@code rows} as {@code table} shows them, in {@code format}. */
    public static <T> String render(Table<T> table, List<? extends T> rows, ReportFormat format) {
        return switch (format) {
            case TEXT -> text(table, rows);
            case CSV -> csv(table, rows);
            case MARKDOWN -> markdown(table, rows);
        };
    }

    /** A section title: a line in text, a heading in Markdown, nothing in CSV (one CSV holds one table). */
    public static String heading(String title, ReportFormat format) {
        return switch (format) {
            case TEXT -> title + "\n";
            case CSV -> "";
            case MARKDOWN -> "### " + title.replace("\n", " ") + "\n\n";
        };
    }

    /** The device and the copy bandwidth and kernel latency a report's predictions use, as its first notes. */
    public static String deviceNotes(String device, DeviceCeilings ceilings, ReportFormat format) {
        return notes(
                        List.of(
                                "device: " + device,
                                String.format(
                                        Locale.ROOT,
                                        "copy bandwidth (read + write): %.0f GB/s, kernel latency %.2f us (%s)",
                                        ceilings.copyBytesPerSecond() / 1e9,
                                        ceilings.kernelLatencySeconds() * 1e6,
                                        ceilings.copyHow())),
                        format)
                .stripLeading();
    }

    /** Explanations below a table: lines in text, paragraphs in Markdown, nothing in CSV. */
    public static String notes(List<String> notes, ReportFormat format) {
        StringBuilder sb = new StringBuilder();
        for (String n : notes) {
            switch (format) {
                case TEXT -> sb.append(n).append('\n');
                case CSV -> {}
                case MARKDOWN -> sb.append('\n').append(n).append('\n');
            }
        }
        return sb.toString();
    }

    /**
     * The cuBLASLt sweep: per product the timing, its predictions on datasheet ("sheet") and on measured ("meas.")
     * ceilings, the bound, and the energy columns when a {@link PowerMeter} measured it (empty otherwise); a failed
     * product keeps its row with the reason. Text and Markdown add notes on how the error and the energy are computed.
     */
    public static String gemm(List<? extends BenchmarkResult> rows, ReportFormat format) {
        List<String> notes = new ArrayList<>();
        double latency = rows.stream()
                .filter(r -> r instanceof Measurement)
                .map(r -> (Measurement) r)
                .mapToDouble(m -> m.prediction().latencySeconds())
                .max()
                .orElse(0);
        notes.add(
                "err % = (measured / predicted - 1) x 100; 'sheet' uses datasheet ceilings, 'meas.' the ceilings measured on this device"
                        + (latency > 0 ? fmt(" plus its kernel latency (%.2f us per product)", latency * 1e6) : "")
                        + ".");
        if (rows.stream().anyMatch(r -> r instanceof Measurement m && m.energy().isPresent())) {
            notes.add(
                    "energy: each product again back to back for >= " + Benchmark.ENERGY_PHASE_SECONDS
                            + " s of GPU time inside one PowerMeter session; mJ/op = joules / launches, GFLOPS/W = FLOPs x launches / joules / 1e9.");
        }
        return render(GemmTable.TABLE, rows, format) + notes(notes, format);
    }

    /** {@link #gemm} as CSV. */
    public static String csv(List<? extends BenchmarkResult> rows) {
        return gemm(rows, ReportFormat.CSV);
    }

    /** {@link #gemm} as text. */
    public static String table(List<? extends BenchmarkResult> rows) {
        return gemm(rows, ReportFormat.TEXT);
    }

    /** One result in brief, for progress: product, shape, median, rate, joules per product when measured, or the failure. */
    public static String line(BenchmarkResult r) {
        String head = fmt("%-28s %s", r.label(), r.shape());
        return switch (r) {
            case BenchmarkFailure f -> head + " failed: " + f.reason();
            case Measurement m ->
                head
                        + fmt(" %.2f us %.1f TFLOPS", m.time().medianMicros(), m.teraFlopsPerSecond())
                        + m.energy()
                                .map(e -> fmt(
                                        " %.3f mJ %.1f GFLOPS/W avg %.0f W peak %.0f W min SM %d MHz%s",
                                        e.joulesPerOperation() * 1e3,
                                        e.gigaflopsPerWatt(m.operator().flops()),
                                        e.reading().averageWatts(),
                                        e.reading().peakWatts(),
                                        e.reading().minSmClockMHz(),
                                        e.reading().throttled()
                                                ? " throttled " + e.reading().clockLimitReasonNames()
                                                : ""))
                                .orElse("");
        };
    }

    /** A CSV cell as RFC 4180 writes it: quoted, with quotes doubled, when it holds a comma, a quote or a line break. */
    static String csvEscape(String s) {
        boolean quote = s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0;
        return quote ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    /** A Markdown table cell: pipes and backslashes escaped, line breaks as spaces. */
    static String markdownEscape(String s) {
        return s.replace("\\", "\\\\")
                .replace("|", "\\|")
                .replace("\r\n", " ")
                .replace('\n', ' ')
                .replace('\r', ' ');
    }

    private static <T> String csv(Table<T> table, List<? extends T> rows) {
        List<Column<T>> cols = table.columnsIn(ReportFormat.CSV);
        StringBuilder sb = new StringBuilder();
        sb.append(String.join(
                        ",", cols.stream().map(c -> csvEscape(c.csvName())).toList()))
                .append('\n');
        for (T row : rows) {
            sb.append(String.join(
                            ",",
                            cols.stream().map(c -> csvEscape(c.csvCell(row))).toList()))
                    .append('\n');
        }
        return sb.toString();
    }

    private static <T> String text(Table<T> table, List<? extends T> rows) {
        List<Column<T>> cols = table.columnsIn(ReportFormat.TEXT);
        int keys = table.keyColumnsIn(ReportFormat.TEXT);
        int[] width = cols.stream().mapToInt(c -> c.title().length()).toArray();
        List<String[]> cells = new ArrayList<>();
        for (T row : rows) {
            boolean failed = table.failure().apply(row) != null;
            String[] c = new String[failed ? keys : cols.size()];
            for (int i = 0; i < c.length; i++) {
                c[i] = cols.get(i).textCell(row);
                width[i] = Math.max(width[i], c[i].length());
            }
            cells.add(c);
        }
        StringBuilder sb = new StringBuilder();
        sb.append(textLine(cols, width, cols.stream().map(Column::title).toArray(String[]::new), null));
        for (int r = 0; r < rows.size(); r++) {
            sb.append(textLine(cols, width, cells.get(r), table.failure().apply(rows.get(r))));
        }
        return sb.toString();
    }

    private static <T> String textLine(List<Column<T>> cols, int[] width, String[] cells, String failure) {
        List<String> padded = new ArrayList<>();
        for (int i = 0; i < cells.length; i++) {
            String pad = " ".repeat(width[i] - cells[i].length());
            padded.add(cols.get(i).leftAligned() ? cells[i] + pad : pad + cells[i]);
        }
        if (failure != null) {
            padded.add("failed: " + failure);
        }
        return String.join(TEXT_GAP, padded).stripTrailing() + "\n";
    }

    private static <T> String markdown(Table<T> table, List<? extends T> rows) {
        List<Column<T>> cols = table.columnsIn(ReportFormat.MARKDOWN);
        int keys = table.keyColumnsIn(ReportFormat.MARKDOWN);
        StringBuilder sb = new StringBuilder();
        sb.append(markdownLine(cols.stream().map(Column::title).toList()));
        sb.append(markdownLine(
                cols.stream().map(c -> c.leftAligned() ? "---" : "---:").toList()));
        for (T row : rows) {
            String failure = table.failure().apply(row);
            String[] c = new String[cols.size()];
            Arrays.fill(c, "");
            for (int i = 0; i < (failure == null ? cols.size() : keys); i++) {
                c[i] = cols.get(i).textCell(row);
            }
            if (failure != null && keys < c.length) {
                c[keys] = "failed: " + failure;
            }
            sb.append(markdownLine(Arrays.stream(c).map(Report::markdownEscape).toList()));
        }
        return sb.toString();
    }

    private static String markdownLine(List<String> cells) {
        return "| " + String.join(" | ", cells) + " |\n";
    }

    static String fmt(String f, Object... args) {
        return String.format(Locale.ROOT, f, args);
    }

    /** The columns of {@link #gemm}. */
    private static final class GemmTable {
        static final Table<BenchmarkResult> TABLE = new Table<>(
                List.of(
                        Column.text("product", "label", BenchmarkResult::label),
                        Column.text("shape MxNxK", null, BenchmarkResult::shape),
                        Column.number(null, "m", "%d", "%d", gemm(Gemm::m)),
                        Column.number(null, "n", "%d", "%d", gemm(Gemm::n)),
                        Column.number(null, "k", "%d", "%d", gemm(Gemm::k)),
                        Column.text(null, "weights", gemm(g -> g.weights().shortName())),
                        Column.text(
                                null, "activations", gemm(g -> g.activations().shortName())),
                        Column.text(null, "output", gemm(g -> g.output().shortName())),
                        Column.number(
                                null, "flops", "%d", "%d", r -> r.operator().flops()),
                        Column.number(
                                null, "bytes", "%d", "%d", r -> r.operator().bytes()),
                        Column.number("median us", "median_us", "%.2f", "%.3f", measured(m -> m.time()
                                .medianMicros())),
                        Column.number(null, "min_us", "%.3f", "%.3f", measured(m -> m.time()
                                .minMicros())),
                        Column.number(null, "p90_us", "%.3f", "%.3f", measured(m -> m.time()
                                .p90Micros())),
                        Column.number(null, "samples", "%d", "%d", measured(m -> m.time()
                                .samples())),
                        Column.number("TFLOPS", "tflops", "%.1f", "%.2f", measured(Measurement::teraFlopsPerSecond)),
                        Column.number("GB/s", "gbps", "%.0f", "%.1f", measured(Measurement::gigabytesPerSecond)),
                        Column.number("sheet us", "datasheet_us", "%.2f", "%.3f", measured(m -> m.datasheet()
                                .map(p -> p.timeMicros()))),
                        Column.number(
                                "err %",
                                "datasheet_error_pct", "%+.1f", "%.2f", measured(Measurement::datasheetErrorPercent)),
                        Column.number("meas. us", "measured_ceiling_us", "%.2f", "%.3f", measured(m -> m.prediction()
                                .timeMicros())),
                        Column.number(
                                "err %",
                                "measured_ceiling_error_pct", "%+.1f", "%.2f", measured(Measurement::errorPercent)),
                        Column.text(
                                "bound",
                                "bound",
                                measured(m -> m.prediction().bound().name().toLowerCase(Locale.ROOT))),
                        Column.text(null, "failure", r -> r instanceof BenchmarkFailure f ? f.reason() : null),
                        Column.number("mJ/op", null, "%.3f", "%.3f", energy((m, e) -> e.joulesPerOperation() * 1e3)),
                        Column.number(null, "joules_per_op", "%.6g", "%.6g", energy((m, e) -> e.joulesPerOperation())),
                        Column.number(
                                "GFLOPS/W",
                                "gflops_per_watt",
                                "%.1f",
                                "%.2f",
                                energy((m, e) -> e.gigaflopsPerWatt(m.operator().flops()))),
                        Column.number("avg W", "avg_watts", "%.0f", "%.1f", energy((m, e) -> e.reading()
                                .averageWatts())),
                        Column.number("peak W", "peak_watts", "%.0f", "%.1f", energy((m, e) -> e.reading()
                                .peakWatts())),
                        Column.text(
                                "throttled",
                                null,
                                energy((m, e) -> e.reading().throttled()
                                        ? "yes " + e.reading().clockLimitReasonNames()
                                        : "no")),
                        Column.text(
                                null, "throttled", energy((m, e) -> e.reading().throttled())),
                        Column.number(null, "min_sm_mhz", "%d", "%d", energy((m, e) -> e.reading()
                                .minSmClockMHz())),
                        Column.text(null, "clock_event_reasons", energy((m, e) -> e.reading()
                                .clockLimitReasonNames())),
                        Column.number(null, "energy_launches", "%d", "%d", energy((m, e) -> e.operations())),
                        Column.number(null, "energy_gpu_s", "%.4f", "%.4f", energy((m, e) -> e.gpuSeconds())),
                        Column.number(null, "energy_meter_s", "%.4f", "%.4f", energy((m, e) -> e.reading()
                                .seconds())),
                        Column.text(null, "energy_source", energy((m, e) -> e.reading()
                                .energySource()
                                .name()))),
                2,
                r -> r instanceof BenchmarkFailure f ? f.reason() : null);

        private static Function<BenchmarkResult, Object> gemm(Function<Gemm, Object> f) {
            return r -> r.operator() instanceof Gemm g ? f.apply(g) : null;
        }

        private static Function<BenchmarkResult, Object> measured(Function<Measurement, Object> f) {
            return r -> r instanceof Measurement m ? f.apply(m) : null;
        }

        private static Function<BenchmarkResult, Object> energy(
                java.util.function.BiFunction<Measurement, OperationEnergy, Object> f) {
            return r -> r instanceof Measurement m
                    ? m.energy().map(e -> f.apply(m, e)).orElse(null)
                    : null;
        }
    }
}
