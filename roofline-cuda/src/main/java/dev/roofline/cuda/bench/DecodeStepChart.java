package dev.roofline.cuda.bench;

import dev.roofline.core.precision.Precision;
import dev.roofline.core.report.RooflineChart;
import dev.roofline.core.transformer.ModelPrediction;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A profiled decode step on the roofline chart: each model operator's prediction (on the measured ceilings) as a
 * filled point and its measurement as a hollow one. An engine operator that does the work of several model operators
 * (the merged q/k/v product, the add fused with the norm) is measured as one kernel; its time is shared among them in
 * proportion to their predicted times, so each of them is drawn at the rate the fused kernel reached.
 */
public final class DecodeStepChart {
    private DecodeStepChart() {}

    /** The chart of {@code r}, which must be measured and profiled. */
    public static String svg(DecodeStepResult r) {
        if (!r.measured() || r.operators().isEmpty()) {
            throw new IllegalArgumentException(
                    "the chart needs a measured, profiled step; " + DecodeStepReport.title(r) + " is not");
        }
        return RooflineChart.of(r.predicted().hardware(), precisions(r))
                .withTitle(DecodeStepReport.title(r))
                .withPrediction(r.predicted())
                .withMeasuredOperators(r.predicted(), measuredSeconds(r))
                .svg();
    }

    /**
     * Per model operator, its share of the measured time of the engine operator that covers it; none for an operator
     * without launches of its own (run inside another's kernel, whose time holds it).
     */
    static Map<String, Double> measuredSeconds(DecodeStepResult r) {
        ModelPrediction p = r.predicted();
        Map<String, Double> seconds = new LinkedHashMap<>();
        for (DecodeStepResult.OperatorTiming o : r.operators()) {
            if (o.launches() == 0) {
                continue;
            }
            double predicted = DecodeStepBenchmark.seconds(p, o.operator());
            for (String name : o.operator().modelOperators()) {
                seconds.put(name, o.measuredSeconds() * p.operator(name).timeSeconds() / predicted);
            }
        }
        return seconds;
    }

    /** FP16's ceiling, and the weights' own where the GPU has one (an H200 has no NVFP4 ceiling: W4A16 runs FP16). */
    private static List<Precision> precisions(DecodeStepResult r) {
        Precision weights = r.config().format().precision();
        boolean own = weights != Precision.FP16
                && r.predicted().hardware().ceiling(weights).isPresent();
        return own ? List.of(weights, Precision.FP16) : List.of(Precision.FP16);
    }

    /**
     * The chart file of {@code r}: decode-FORMAT[-kvKV]-bBATCH-cCONTEXT-LAUNCH.svg, the KV part for caches other than
     * FP16.
     */
    public static String fileName(DecodeStepResult r) {
        return String.format(
                Locale.ROOT,
                "decode-%s%s-b%d-c%d-%s.svg",
                r.config().format().name().toLowerCase(Locale.ROOT),
                DecodeStepReport.kvLabel(r.config().kv(), "-kv")
                        .toLowerCase(Locale.ROOT)
                        .replaceAll("[^a-z0-9_-]", ""),
                r.config().batch(),
                r.config().context(),
                r.config().launch().name().toLowerCase(Locale.ROOT));
    }
}
