package dev.roofline.core.cli.command;

import dev.roofline.core.calibration.CalibratedPrediction;
import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.cli.UsageException;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.recommend.AccuracyConstraint;
import dev.roofline.core.recommend.Recommender;
import dev.roofline.core.report.HtmlReport;
import dev.roofline.core.transformer.Phase;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code roofline report}: one self-contained HTML page ({@link HtmlReport}) of a model's forward pass: the roofline
 * with every operator (hover for its figures, measured times from {@code --measured-times} as hollow markers) and the
 * sortable operator table, calibrated with {@code --calibration}; with {@code --both-phases} prefill and decode side
 * by side; then the recommended precisions and why. Written to {@code --out}, else to standard output.
 */
public final class ReportCommand extends ModelFamilyCommand {

    @Override
    public String name() {
        return "report";
    }

    @Override
    public String summary() {
        return "one self-contained HTML page: the roofline, the operators, the recommended precisions";
    }

    @Override
    String render(ModelOptions o, PrintStream err) throws IOException {
        Calibration cal = o.calibration();
        if (cal != null && (!o.measuredSeconds().isEmpty() || !o.measured().isEmpty())) {
            throw new UsageException("--calibration draws each operator's calibrated time as its hollow marker; give"
                    + " --measured-times or --measured without it");
        }
        Hardware hw = cal == null ? o.hardware() : cal.applyTo(o.hardware());
        List<Precision> ceilings = o.ceilings();
        if (ceilings == null) {
            ceilings = ModelOptions.defaultCeilings(hw);
        }
        Workload w = o.workload();
        HtmlReport report =
                HtmlReport.titled(o.model().name() + " on " + o.hardware().name());
        Transformer t = Transformer.of(o.model(), o.hardware());
        List<Workload> phases = new ArrayList<>(List.of(w));
        if (o.bothPhases()) {
            Phase other = w.phase() == Phase.DECODE ? Phase.PREFILL : Phase.DECODE;
            phases.add(w.withPhase(other));
            phases.sort(Comparator.comparing(Workload::phase)); // prefill first, as a request runs
        }
        for (Workload phase : phases) {
            String heading = String.format(
                    Locale.ROOT,
                    "%s, batch %d, %d tokens of %s, %s weights",
                    phase.phase().name().toLowerCase(Locale.ROOT),
                    phase.batch(),
                    phase.contextTokens(),
                    phase.phase() == Phase.PREFILL ? "prompt" : "context",
                    phase.weights().displayName());
            if (cal == null) {
                // measured times belong to the phase asked for
                report = report.withPrediction(
                        "Roofline: " + heading,
                        t.predict(phase),
                        ceilings,
                        phase == w ? o.measured() : List.of(),
                        phase == w ? o.measuredSeconds() : Map.of());
            } else {
                CalibratedPrediction c = cal.predict(t, phase);
                report = report.withCalibrated("Roofline, calibrated: " + heading, c, ceilings);
            }
        }
        Recommender r = Recommender.on(o.hardware());
        if (o.allowed() != null) {
            r = r.withConstraint(AccuracyConstraint.allowing(o.allowed().toArray(Precision[]::new)));
        }
        if (cal != null) {
            r = r.withCalibration(cal);
        }
        report = report.withRecommendation("Precisions", r.recommend(o.model(), w));
        if (o.out() == null) {
            return report.html();
        }
        try {
            report.write(o.out());
        } catch (UncheckedIOException e) {
            throw new IOException(e.getMessage(), e);
        }
        return "wrote " + o.out() + "\n";
    }
}
