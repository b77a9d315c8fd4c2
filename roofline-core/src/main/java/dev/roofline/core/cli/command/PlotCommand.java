package dev.roofline.core.cli.command;

import dev.roofline.core.calibration.CalibratedPrediction;
import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.report.ChartPoint;
import dev.roofline.core.report.RooflineChart;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;

/**
 * {@code roofline plot}: an SVG roofline chart of a model's operators, with measured points. With {@code --calibration}
 * the points are the calibrated predictions and the memory slope is the measured copy bandwidth.
 */
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
    String render(ModelOptions o, PrintStream err) throws IOException {
        Calibration cal = o.calibration();
        // a calibration draws the memory slope at the measured copy bandwidth, labelled as measured
        Hardware hw = cal == null ? o.hardware() : cal.applyTo(o.hardware());
        Transformer t = Transformer.of(o.model(), o.hardware());
        List<Precision> ceilings = o.ceilings();
        if (ceilings == null) {
            ceilings = ModelOptions.defaultCeilings(hw);
        }
        Workload w = o.workload();
        ModelPrediction p;
        String notice = "";
        if (cal == null) {
            p = t.predict(w);
        } else {
            CalibratedPrediction c = cal.predict(t, w);
            p = c.calibrated();
            notice = calibrated(cal, c.uncalibratedClasses());
        }
        RooflineChart chart = RooflineChart.of(hw, ceilings)
                .withPrediction(p)
                .withTitle(f(
                        "%s %s on %s, batch %d, context %d, W %s%s",
                        o.model().name(),
                        w.phase().name().toLowerCase(Locale.ROOT),
                        hw.name(),
                        w.batch(),
                        w.contextTokens(),
                        w.weights().displayName(),
                        cal == null
                                ? ""
                                : ", calibrated on " + cal.provenance().device() + " "
                                        + cal.provenance().date()));
        for (ChartPoint m : o.measured()) {
            chart = chart.withPoint(m);
        }
        String svg = chart.svg();
        if (o.out() == null) {
            err.print(notice);
            return svg;
        }
        try {
            Files.writeString(o.out(), svg);
        } catch (IOException e) {
            throw new IOException("cannot write " + o.out() + ": " + e.getMessage(), e);
        }
        return notice + "wrote " + o.out() + " (" + p.operators().size() + " operators, "
                + o.measured().size() + " measured points)\n";
    }
}
