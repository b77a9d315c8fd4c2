package dev.roofline.core.report;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.parallel.Deployment;
import dev.roofline.core.parallel.ServingPrediction;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Serving predictions ({@link ServingPrediction}) as a table, one row per setup, in Markdown or CSV.
 *
 * <pre>{@code
 * String csv = ServingTable.csv(List.of(prediction));
 * }</pre>
 */
public final class ServingTable {
    private ServingTable() {}

    public static final List<String> HEADER = List.of(
            "model",
            "hardware",
            "gpus",
            "tp",
            "pp",
            "ep",
            "dp",
            "micro-batches",
            "link",
            "weights",
            "concurrency",
            "input",
            "output",
            "TTFT ms",
            "TPOT ms",
            "end-to-end ms",
            "tokens/s",
            "tokens/s per GPU",
            "weights GiB per GPU",
            "KV GiB per GPU",
            "max concurrency",
            "fits");

    private static final double GIB = 1L << 30;

    /** One row per prediction, cells as text, in the order of {@link #HEADER}. */
    public static List<List<String>> rows(List<ServingPrediction> predictions) {
        Checks.notNull("predictions", predictions);
        List<List<String>> rows = new ArrayList<>();
        for (ServingPrediction s : predictions) {
            Deployment d = s.deployment();
            rows.add(List.of(
                    s.model().name(),
                    s.hardware().name(),
                    Integer.toString(d.gpus()),
                    Integer.toString(d.tensorParallel()),
                    Integer.toString(d.pipelineParallel()),
                    Integer.toString(d.expertParallel()),
                    Integer.toString(d.dataParallel()),
                    Integer.toString(d.microBatches()),
                    d.link().name(),
                    s.weights().displayName(),
                    Integer.toString(s.concurrency()),
                    Integer.toString(s.inputTokens()),
                    Integer.toString(s.outputTokens()),
                    fmt("%.3f", s.ttftSeconds() * 1e3),
                    fmt("%.4f", s.tpotSeconds() * 1e3),
                    fmt("%.3f", s.endToEndSeconds() * 1e3),
                    fmt("%.2f", s.tokensPerSecond()),
                    fmt("%.2f", s.tokensPerSecondPerGpu()),
                    fmt("%.3f", s.weightBytesPerGpu() / GIB),
                    fmt("%.3f", s.kvBytesPerGpu() / GIB),
                    Long.toString(s.maxConcurrency()),
                    Boolean.toString(s.fits())));
        }
        return rows;
    }

    public static String markdown(List<ServingPrediction> predictions) {
        return OperatorTable.markdownTable(HEADER, Set.of(0, 1, 8, 9, 21), rows(predictions));
    }

    /** RFC 4180 CSV: a header line, then one line per setup. */
    public static String csv(List<ServingPrediction> predictions) {
        return OperatorTable.csv(HEADER, rows(predictions));
    }

    private static String fmt(String f, Object... v) {
        return String.format(Locale.ROOT, f, v);
    }
}
