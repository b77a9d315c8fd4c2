package dev.roofline.cuda.bench;

import dev.roofline.core.roofline.Gemm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * What {@link GemvBenchmark#run} measured: the device's ceilings, each kernel (label: its weight format) with its
 * predictions, cuBLASLt baseline and same-bytes copy, and the decoder layer's linears (operator name: the linear).
 * {@link #render} writes the benchmark's tables, with each kernel's time at M rows over its time at one row
 * ({@link RowsOverOne}) where both were run.
 *
 * @param device      the device, as {@code Device.toString()} describes it
 * @param ceilings    the copy bandwidth and kernel latency the predictions use
 * @param kernels     each shape in each format, in the order run
 * @param decodeLayer the decoder layer's linears per format; empty when not asked for
 */
public record GemvBenchmarkResults(
        String device, DeviceCeilings ceilings, List<Measurement> kernels, List<Measurement> decodeLayer) {

    /** The kernel table: in CSV, every measurement (the decoder layer's too), cells empty where a figure has no input. */
    static final Table<Measurement> KERNELS = Table.of(List.of(
            Column.text(null, "operator", m -> m.operator().name()),
            Column.text("shape NxK", null, m -> gemm(m, g -> g.n() + "x" + g.k())),
            Column.number("M", "m", "%d", "%d", m -> gemm(m, Gemm::m)),
            Column.text("format", "format", Measurement::label),
            Column.number(null, "n", "%d", "%d", m -> gemm(m, Gemm::n)),
            Column.number(null, "k", "%d", "%d", m -> gemm(m, Gemm::k)),
            Column.number(
                    "median us", "median_us", "%.2f", "%.3f", m -> m.time().medianMicros()),
            Column.number(null, "min_us", "%.3f", "%.3f", m -> m.time().minMicros()),
            Column.number(null, "p90_us", "%.3f", "%.3f", m -> m.time().p90Micros()),
            Column.number(null, "samples", "%d", "%d", m -> m.time().samples()),
            Column.number("cuBLAS FP16 us", "cublas_fp16_us", "%.2f", "%.3f", m -> m.baseline()
                    .map(b -> b.time().medianMicros())),
            Column.number("speedup", "speedup", "%.2fx", "%.3f", Measurement::speedup),
            Column.number("weight GB/s", "weight_gbps", "%.0f", "%.1f", Measurement::streamedGigabytesPerSecond),
            Column.number("% of copy", "pct_of_copy", "%.1f%%", "%.2f", Measurement::percentOfCopy),
            Column.number("roofline us", "roofline_us", "%.2f", "%.3f", m -> m.prediction()
                    .timeMicros()),
            Column.number("err %", "error_pct", "%+.1f", "%.2f", Measurement::errorPercent),
            CopyColumns.COPY,
            CopyColumns.VS_COPY,
            CopyColumns.READ,
            CopyColumns.VS_READ,
            Column.number(
                    "err % w/o latency",
                    "error_pct_without_latency", "%+.1f", "%.2f", Measurement::errorPercentWithoutLatency),
            Column.number(
                    "speedup at roofline", "speedup_at_roofline", "%.2fx", "%.3f", Measurement::speedupAtRoofline),
            Column.number(
                    "% of copy at roofline",
                    "pct_of_copy_at_roofline", "%.1f%%", "%.2f", Measurement::percentOfCopyAtRoofline),
            Column.number(
                    null, "datasheet_us", "%.3f", "%.3f", m -> m.datasheet().map(p -> p.timeMicros())),
            Column.text(null, "bound", m -> m.prediction().bound().name().toLowerCase(Locale.ROOT))));

    static final Table<Measurement> DECODE_LAYER = Table.of(List.of(
            Column.text("linear", null, m -> m.operator().name()),
            Column.text("format", null, Measurement::label),
            Column.text("shape NxK", null, m -> gemm(m, g -> g.n() + "x" + g.k())),
            Column.number("measured us", null, "%.2f", "%.3f", m -> m.time().medianMicros()),
            Column.number("roofline us (measured BW + latency)", null, "%.2f", "%.3f", m -> m.prediction()
                    .timeMicros()),
            Column.number("roofline us (datasheet)", null, "%.2f", "%.3f", m -> m.datasheet()
                    .map(p -> p.timeMicros()))));

    static final Table<RowsOverOne> ROWS_OVER_ONE = Table.of(List.of(
            Column.text("format", null, RowsOverOne::label),
            Column.text("shape NxK", null, r -> r.n() + "x" + r.k()),
            Column.number("M", null, "%d", "%d", RowsOverOne::m),
            Column.number("measured / M=1", null, "%.2fx", "%.3f", RowsOverOne::measured),
            Column.number("roofline / M=1", null, "%.2fx", "%.3f", RowsOverOne::roofline)));

    static final Table<LayerTotal> LAYER_TOTALS = Table.of(List.of(
            Column.text("layer", null, t -> t.label()),
            Column.number("measured us", null, "%.2f", "%.3f", LayerTotal::measuredMicros),
            Column.number("roofline us (measured BW + latency)", null, "%.2f", "%.3f", LayerTotal::predictedMicros),
            Column.number("roofline us (datasheet)", null, "%.2f", "%.3f", LayerTotal::datasheetMicros),
            Column.number("err %", null, "%+.1f", "%.2f", LayerTotal::errorPercent)));

    public GemvBenchmarkResults {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(ceilings, "ceilings");
        kernels = List.copyOf(kernels);
        decodeLayer = List.copyOf(decodeLayer);
    }

    /** The decoder layer's linears summed per format, in the order run. */
    public List<LayerTotal> layerTotals() {
        Map<String, List<Measurement>> byFormat = new LinkedHashMap<>();
        decodeLayer.forEach(
                m -> byFormat.computeIfAbsent(m.label(), l -> new ArrayList<>()).add(m));
        return byFormat.values().stream().map(LayerTotal::of).toList();
    }

    /**
     * The report: in text and Markdown the device and its ceilings, the kernel table, each kernel at several rows
     * against one row where both ran ({@link RowsOverOne}), then the decoder layer and its totals; in CSV one table of
     * every measurement (the kernels', then the decoder layer's; totals are their sums and the rows' ratios follow from
     * the median_us and roofline_us of the rows that share format, n and k).
     */
    public String render(ReportFormat format) {
        if (format == ReportFormat.CSV) {
            return Report.render(
                    KERNELS,
                    Stream.concat(kernels.stream(), decodeLayer.stream()).toList(),
                    format);
        }
        StringBuilder sb = new StringBuilder();
        sb.append(Report.deviceNotes(device, ceilings, format));
        sb.append('\n').append(Report.heading("GEMV kernels", format));
        sb.append(Report.render(KERNELS, kernels, format));
        sb.append(Report.notes(
                List.of("err % = (measured / roofline - 1) x 100, the roofline on the measured copy bandwidth plus the"
                        + " kernel latency; 'w/o latency' drops the latency term. Speedup is over cuBLASLt FP16; 'same-bytes copy' moves the"
                        + " format's weight and scale bytes (half read, half written); 'at roofline': the speedup and share of the copy"
                        + " bandwidth of a kernel running exactly at the roofline."),
                format));
        List<RowsOverOne> rowsOverOne = RowsOverOne.of(kernels);
        if (!rowsOverOne.isEmpty()) {
            sb.append('\n').append(Report.heading("Rows against one row", format));
            sb.append(Report.render(ROWS_OVER_ONE, rowsOverOne, format));
            sb.append(Report.notes(
                    List.of("measured / M=1: the median at M rows over the median at one row, same format and shape,"
                            + " each on its own kernel; roofline / M=1: the same of the roofline's times (the weights stream once whatever"
                            + " M, so this is what the other rows' activations and outputs add)."),
                    format));
        }
        if (!decodeLayer.isEmpty()) {
            sb.append('\n').append(Report.heading("Llama-3-8B decoder layer, M=1", format));
            sb.append(Report.render(DECODE_LAYER, decodeLayer, format));
            sb.append('\n').append(Report.render(LAYER_TOTALS, layerTotals(), format));
        }
        return sb.toString();
    }

    private static Object gemm(Measurement m, Function<Gemm, Object> f) {
        return m.operator() instanceof Gemm g ? f.apply(g) : null;
    }
}
