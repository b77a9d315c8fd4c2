package dev.roofline.cuda.bench;

import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.cuda.decode.DecoderOperator;
import dev.roofline.cuda.decode.DecoderShape;
import dev.roofline.cuda.decode.DenseDecoder;
import dev.roofline.cuda.kernels.KvCacheFormat;
import dev.roofline.cuda.kernels.WeightFormat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Decode steps as tables, one per configuration: per {@link DecoderOperator} its launches, the prediction of the model
 * operators it covers on the datasheet and on the measured ceilings, its measured time and the error; then the sum of
 * the operators and the whole step as graphed. An operator without launches of its own, run inside another's kernel,
 * shows no measured time: it is in that operator's. A configuration that was not run is one line saying why.
 */
public final class DecodeStepReport {
    private DecodeStepReport() {}

    /**
     * One row: an operator, the sum of the operators or the whole step.
     *
     * @param measuredSeconds NaN when not measured
     */
    record Row(
            String config,
            String operator,
            int launches,
            double datasheetSeconds,
            double predictedSeconds,
            double measuredSeconds,
            double readFloorSeconds,
            double inStepSeconds,
            double inStepFloorSeconds) {

        /** A row without a read floor, not measured in the step. */
        Row(
                String config,
                String operator,
                int launches,
                double datasheetSeconds,
                double predictedSeconds,
                double measuredSeconds) {
            this(
                    config,
                    operator,
                    launches,
                    datasheetSeconds,
                    predictedSeconds,
                    measuredSeconds,
                    Double.NaN,
                    Double.NaN,
                    Double.NaN);
        }

        /** Measured over the read floor: 1 is a kernel that only streams what it must read. */
        Double timesReadFloor() {
            return ratio(measuredSeconds, readFloorSeconds);
        }

        /** What the operator adds to the step over what its reads add to the read floor. */
        Double inStepTimesFloor() {
            return ratio(inStepSeconds, inStepFloorSeconds);
        }

        private static Double ratio(double over, double under) {
            return Double.isNaN(over) || Double.isNaN(under) ? null : over / under;
        }

        Double errorPercent() {
            return Double.isNaN(measuredSeconds) || Double.isNaN(predictedSeconds)
                    ? null
                    : (measuredSeconds / predictedSeconds - 1) * 100;
        }
    }

    private static final List<Column<Row>> PREDICTED_COLUMNS = List.of(
            Column.text(null, "config", Row::config),
            Column.text("operator", "operator", Row::operator),
            Column.number("launches", "launches", "%d", "%d", Row::launches),
            Column.number("datasheet us", "datasheet_us", "%.1f", "%.3f", r -> micros(r.datasheetSeconds())),
            Column.number("predicted us", "predicted_us", "%.1f", "%.3f", r -> micros(r.predictedSeconds())),
            Column.number("measured us", "measured_us", "%.1f", "%.3f", r -> micros(r.measuredSeconds())),
            Column.number("error", "error_percent", "%+.1f %%", "%.2f", Row::errorPercent));
    /** The prediction without a GPU. */
    private static final Table<Row> PREDICTED = Table.of(PREDICTED_COLUMNS);
    /** Measured steps: the prediction's columns and each row's read floor. */
    private static final Table<Row> TABLE = Table.of(java.util.stream.Stream.concat(
                    PREDICTED_COLUMNS.stream(),
                    java.util.stream.Stream.of(
                            Column.<Row>number(
                                    "read floor us",
                                    "read_floor_us",
                                    "%.1f",
                                    "%.3f",
                                    r -> micros(r.readFloorSeconds())),
                            Column.<Row>number("vs floor", "vs_read_floor", "%.2fx", "%.3f", Row::timesReadFloor),
                            Column.<Row>number(
                                    "in step us", "in_step_us", "%.1f", "%.3f", r -> micros(r.inStepSeconds())),
                            Column.<Row>number(
                                    "its floor in step us",
                                    "in_step_read_floor_us",
                                    "%.1f",
                                    "%.3f",
                                    r -> micros(r.inStepFloorSeconds())),
                            Column.<Row>number(
                                    "vs floor in step",
                                    "in_step_vs_read_floor",
                                    "%.2fx",
                                    "%.3f",
                                    Row::inStepTimesFloor)))
            .toList());

    /** Every configuration of {@code results} in {@code format} (CSV: one table, a row per operator and total). */
    public static String render(DecodeStepBenchmark.Results results, ReportFormat format) {
        StringBuilder sb = new StringBuilder(Report.deviceNotes(results.device(), results.ceilings(), format));
        List<Row> csv = new ArrayList<>();
        for (DecodeStepResult r : results.results()) {
            if (format == ReportFormat.CSV) {
                csv.addAll(rows(r));
                continue;
            }
            sb.append('\n').append(Report.heading(title(r), format));
            if (!r.measured()) {
                sb.append(Report.notes(List.of(r.notRun()), format));
                continue;
            }
            sb.append(Report.render(TABLE, rows(r), format));
            sb.append(Report.notes(List.of(r.toString()), format));
        }
        if (format == ReportFormat.CSV) {
            return Report.render(TABLE, csv, format);
        }
        sb.append(Report.notes(
                List.of("predicted: the roofline of the model's operators each row covers (the embedding lookup is not"
                        + " in the step), on the datasheet and on the measured copy bandwidth; no kernel latency is"
                        + " charged. measured: each operator's launches of one step replayed as a CUDA graph, median;"
                        + " the step: the whole step as one graph, median of " + DecodeStepBenchmark.STEP_REPLAYS
                        + " replays. read floor, where measured: each launch replaced by a kernel that only reads that"
                        + " launch's bytes (weights and KV caches from DRAM, activations from L2), graphed, launched"
                        + " and timed like the measured column; vs floor: measured over it. in step: the step less the"
                        + " step without this operator's launches (each timed as the step), what it costs beside its"
                        + " neighbours; its floor in step: the read floor less the floor without its reads; vs floor"
                        + " in step: the one over the other."),
                format));
        return sb.toString();
    }

    /**
     * The per-operator prediction of a step on one machine, without measurements (no GPU here), with the launches a
     * one-GPU decoder of {@code weights} at {@code batch} sequences would make ({@link DenseDecoder#launches(
     * DecoderOperator, DecoderShape, WeightFormat, int)}).
     */
    public static String prediction(
            String title,
            ModelPrediction datasheet,
            DecoderShape shape,
            WeightFormat weights,
            int batch,
            ReportFormat format) {
        List<Row> rows = new ArrayList<>();
        int launches = 0;
        for (DecoderOperator o : shape.operators()) {
            int n = DenseDecoder.launches(o, shape, weights, batch);
            rows.add(new Row(title, o.label(), n, DecodeStepBenchmark.seconds(datasheet, o), Double.NaN, Double.NaN));
            launches += n;
        }
        rows.add(new Row(title, "step", launches, DecodeStepResult.stepPrediction(datasheet), Double.NaN, Double.NaN));
        return Report.heading(title, format) + Report.render(PREDICTED, rows, format);
    }

    private static final Table<DecodeCalibration.Check> CHECKS = Table.of(List.of(
            Column.text("configuration", "config", c -> shortTitle(c.result())),
            Column.text("role", "role", c -> c.calibrationPoint() ? "calibration" : "held out"),
            Column.number("measured us", "measured_us", "%.1f", "%.3f", c -> c.result()
                    .micros()),
            Column.number("datasheet us", "datasheet_us", "%.1f", "%.3f", c -> c.datasheetSeconds() * 1e6),
            Column.number("err", "datasheet_error_percent", "%+.1f %%", "%.2f", c -> c.datasheetErrorPercent()),
            Column.number("roofline us", "roofline_us", "%.1f", "%.3f", c -> c.rooflineSeconds() * 1e6),
            Column.number("err", "roofline_error_percent", "%+.1f %%", "%.2f", c -> c.rooflineErrorPercent()),
            Column.number("calibrated us", "calibrated_us", "%.1f", "%.3f", c -> c.calibratedSeconds() * 1e6),
            Column.number("err", "calibrated_error_percent", "%+.1f %%", "%.2f", c -> c.calibratedErrorPercent())));

    /**
     * Each measured step beside the datasheet, the roofline on the measured ceilings and {@code calibration}, with the
     * error of each ((measured / predicted - 1) x 100).
     */
    public static String calibration(
            List<DecodeCalibration.Check> checks,
            dev.roofline.core.calibration.Calibration calibration,
            ReportFormat format) {
        if (format == ReportFormat.CSV) {
            return Report.render(CHECKS, checks, format);
        }
        List<String> notes = new ArrayList<>();
        notes.add("calibration: " + calibration.provenance()
                + String.format(
                        Locale.ROOT,
                        "; copy %.0f GB/s, %.2f us per launch, %d kernels per layer + %d as fitted%s",
                        calibration.copyBytesPerSecond() / 1e9,
                        calibration.launchSeconds() * 1e6,
                        calibration.kernelsPerLayer(),
                        calibration.kernelsPerModel(),
                        calibration.plans().isEmpty() ? "" : ", elsewhere as the engine's launch plans"));
        StringBuilder e = new StringBuilder("efficiencies (share of the copy bandwidth):");
        calibration.efficiencies().forEach((c, v) -> e.append(String.format(Locale.ROOT, " %s %.3f;", c.key(), v)));
        notes.add(e.substring(0, e.length() - 1));
        calibration
                .fixedSeconds()
                .forEach((c, v) -> notes.add(String.format(
                        Locale.ROOT, "fixed time per %s operator (per layer): %.2f us", c.key(), v * 1e6)));
        return "\n" + Report.heading("Predictions against measured steps", format)
                + Report.render(CHECKS, checks, format) + Report.notes(notes, format);
    }

    static String shortTitle(DecodeStepResult r) {
        return String.format(
                Locale.ROOT,
                "%s%s B%d C%d %s",
                r.config().format(),
                kvLabel(r.config().kv(), " KV "),
                r.config().batch(),
                r.config().context(),
                r.config().launch().name().toLowerCase(Locale.ROOT));
    }

    /** {@code prefix} and the KV cache's format, or nothing for the FP16 cache most configurations keep. */
    static String kvLabel(KvCacheFormat kv, String prefix) {
        return kv.equals(KvCacheFormat.FP16) ? "" : prefix + kv;
    }

    static String title(DecodeStepResult r) {
        return String.format(
                Locale.ROOT,
                "%s, %s weights, %s KV, batch %d, context %d, %s launches",
                r.model(),
                r.config().format(),
                r.config().kv(),
                r.config().batch(),
                r.config().context(),
                r.config().launch().name().toLowerCase(Locale.ROOT));
    }

    static List<Row> rows(DecodeStepResult r) {
        String config = title(r);
        List<Row> rows = new ArrayList<>();
        if (!r.measured()) {
            return rows;
        }
        int launches = 0;
        for (DecodeStepResult.OperatorTiming o : r.operators()) {
            rows.add(new Row(
                    config,
                    o.operator().label(),
                    o.launches(),
                    o.datasheetSeconds(),
                    o.predictedSeconds(),
                    o.launches() == 0 ? Double.NaN : o.measuredSeconds(),
                    o.readFloorSeconds(),
                    o.inStepSeconds(),
                    o.inStepFloorSeconds()));
            launches += o.launches();
        }
        double datasheet = DecodeStepResult.stepPrediction(r.datasheet());
        double predicted = DecodeStepResult.stepPrediction(r.predicted());
        if (!r.operators().isEmpty()) {
            double floors = r.sumOfLaunched(DecodeStepResult.OperatorTiming::readFloorSeconds);
            rows.add(new Row(
                    config,
                    "sum of operators",
                    launches,
                    datasheet,
                    predicted,
                    r.profiledSeconds(),
                    floors,
                    r.inStepSeconds(),
                    r.inStepFloorSeconds()));
        }
        rows.add(new Row(
                config,
                "step (graph)",
                r.launches(),
                datasheet,
                predicted,
                r.seconds(),
                r.readFloorSeconds(),
                Double.NaN,
                Double.NaN));
        return rows;
    }

    private static Double micros(double seconds) {
        return Double.isNaN(seconds) ? null : seconds * 1e6;
    }
}
