package dev.roofline.core.cli.command;

import dev.roofline.core.precision.Precision;
import dev.roofline.core.recommend.AccuracyConstraint;
import dev.roofline.core.recommend.Exclusion;
import dev.roofline.core.recommend.ModelRecommendation;
import dev.roofline.core.recommend.Recommendation;
import dev.roofline.core.recommend.Recommender;
import dev.roofline.core.recommend.RoleChoice;
import dev.roofline.core.report.TextTable;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code roofline recommend}: weight, activation and KV precisions for a model, with method, speedup and reason.
 * {@code --allow} limits every role to the formats named (FP16, the baseline, stays a candidate); the output says
 * which precision each role got and why, and why a named format was no candidate for a role. With
 * {@code --calibration} every speedup is a ratio of calibrated times.
 */
public final class RecommendCommand extends ModelFamilyCommand {

    @Override
    public String name() {
        return "recommend";
    }

    @Override
    public String summary() {
        return "the fastest weight/activation/KV precisions for a model, per operator, with the reason";
    }

    @Override
    String render(ModelOptions o, PrintStream err) {
        Recommender r = Recommender.on(o.hardware());
        if (o.allowed() != null) {
            r = r.withConstraint(AccuracyConstraint.allowing(o.allowed().toArray(Precision[]::new)));
        }
        if (o.calibration() != null) {
            r = r.withCalibration(o.calibration());
        }
        ModelRecommendation rec = r.recommend(o.model(), o.workload());
        Recommendation m = rec.model();
        StringBuilder sb = new StringBuilder();
        sb.append(f(
                "%s on %s: use %s (%.2fx vs FP16)%n",
                m.subject(), o.hardware().name(), m.choice().label(), m.speedupVsFp16()));
        if (o.calibration() != null) {
            sb.append(calibrated(o.calibration(), rec.uncalibratedClasses()));
        }
        sb.append("method: ").append(m.method()).append('\n');
        sb.append("why: ").append(m.reason()).append('\n');
        sb.append("runners-up: ");
        List<String> ups = new ArrayList<>();
        for (int i = 0; i < Math.min(4, rec.ranked().size()); i++) {
            ups.add(f(
                    "%s %.2fx",
                    rec.ranked().get(i).choice().label(), rec.ranked().get(i).speedupVsFp16()));
        }
        sb.append(String.join("; ", ups)).append('\n');
        for (RoleChoice role : rec.roles()) {
            sb.append(f(
                    "%s: %s (candidates %s): %s%n",
                    role.role().displayName(),
                    role.chosen().displayName(),
                    String.join(
                            ", ",
                            role.candidates().stream()
                                    .map(Precision::displayName)
                                    .toList()),
                    role.reason()));
        }
        for (Exclusion e : rec.excluded()) {
            sb.append("not a candidate: ").append(e.label()).append('\n');
        }
        sb.append('\n');
        TextTable t = new TextTable("operator", "weights", "activations", "KV", "vs FP16", "method", "reason");
        for (Recommendation op : rec.operators()) {
            t.add(
                    op.subject(),
                    op.choice().weights().displayName(),
                    op.choice().activations().displayName(),
                    op.choice().kvCache().displayName(),
                    f("%.2fx", op.speedupVsFp16()),
                    op.method(),
                    op.reason());
        }
        return sb.append(t.render()).toString();
    }
}
