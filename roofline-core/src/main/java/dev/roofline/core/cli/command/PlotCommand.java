package dev.roofline.core.cli.command;

import dev.roofline.core.precision.Precision;
import dev.roofline.core.report.ChartPoint;
import dev.roofline.core.report.RooflineChart;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code roofline plot}: an SVG roofline chart of a model's operators, with measured points. */
public final class PlotCommand extends ModelFamilyCommand {

    @Override
    public String name() {
        return "plot";
    }

    @Override
    public String summary() {
        return "an SVG roofline chart of a model's operators, with measured points";
    }

    @Override
    String render(ModelOptions o) throws IOException {
        Transformer t = Transformer.of(o.model(), o.hardware());
        List<Precision> ceilings = o.ceilings();
        if (ceilings == null) {
            ceilings = new ArrayList<>();
            for (Precision p : new Precision[] {Precision.FP16, Precision.FP8_E4M3, Precision.NVFP4}) {
                if (o.hardware().runsNatively(p)) {
                    ceilings.add(p);
                }
            }
        }
        ModelPrediction p = t.predict(o.workload());
        Workload w = o.workload();
        RooflineChart chart = RooflineChart.of(o.hardware(), ceilings)
                .withPrediction(p)
                .withTitle(f(
                        "%s %s on %s, batch %d, context %d, W %s",
                        o.model().name(),
                        w.phase().name().toLowerCase(Locale.ROOT),
                        o.hardware().name(),
                        w.batch(),
                        w.contextTokens(),
                        w.weights().displayName()));
        for (ChartPoint m : o.measured()) {
            chart = chart.withPoint(m);
        }
        String svg = chart.svg();
        if (o.out() == null) {
            return svg;
        }
        try {
            Files.writeString(o.out(), svg);
        } catch (IOException e) {
            throw new IOException("cannot write " + o.out() + ": " + e.getMessage(), e);
        }
        return "wrote " + o.out() + " (" + p.operators().size() + " operators, "
                + o.measured().size() + " measured points)\n";
    }
}
