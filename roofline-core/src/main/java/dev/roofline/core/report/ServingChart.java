package dev.roofline.core.report;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.parallel.Deployment;
import dev.roofline.core.parallel.ServingPrediction;

import java.util.List;
import java.util.Locale;

/**
 * A search's Pareto set as an SVG chart: time per output token across (ms, linear from 0), tokens per second per GPU
 * up, one labelled point per setup joined along the front, the winner filled.
 *
 * <pre>{@code
 * String svg = ServingChart.svg(result.pareto(), result.winner());
 * }</pre>
 */
public final class ServingChart {
    private ServingChart() {}

    private static final int W = 720, H = 460, LEFT = 80, RIGHT = 30, TOP = 40, BOTTOM = 60;

    /** The chart of {@code pareto} (fastest token first), {@code winner} filled; an empty set draws empty axes. */
    public static String svg(List<ServingPrediction> pareto, ServingPrediction winner) {
        Checks.notNull("pareto", pareto);
        double maxX =
                pareto.stream().mapToDouble(s -> s.tpotSeconds() * 1e3).max().orElse(1) * 1.1;
        double maxY = pareto.stream()
                        .mapToDouble(ServingPrediction::tokensPerSecondPerGpu)
                        .max()
                        .orElse(1)
                * 1.1;
        StringBuilder sb = new StringBuilder();
        sb.append(f(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                        + " font-family=\"sans-serif\" font-size=\"11\">%n",
                W, H, W, H));
        sb.append(f("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", W, H));
        sb.append(f("<text x=\"%d\" y=\"22\" font-size=\"14\">%s</text>%n", LEFT, RooflineChart.esc(title(pareto))));
        int x0 = LEFT, y0 = H - BOTTOM, x1 = W - RIGHT, y1 = TOP;
        sb.append(f("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", x0, y0, x1, y0));
        sb.append(f("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", x0, y0, x0, y1));
        for (int i = 0; i <= 4; i++) {
            double vx = maxX * i / 4, vy = maxY * i / 4;
            sb.append(f("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.3g</text>%n", x(vx, maxX), y0 + 16, vx));
            sb.append(f("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>%n", x0 - 6, y(vy, maxY) + 4, vy));
        }
        sb.append(f(
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time per output token, ms</text>%n",
                (x0 + x1) / 2, H - 18));
        sb.append(f(
                "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 18 %d)\">tokens/s per GPU"
                        + "</text>%n",
                (y0 + y1) / 2, (y0 + y1) / 2));
        if (pareto.size() > 1) {
            sb.append("<polyline fill=\"none\" stroke=\"#4a7\" points=\"");
            for (ServingPrediction s : pareto) {
                sb.append(f("%.1f,%.1f ", x(s.tpotSeconds() * 1e3, maxX), y(s.tokensPerSecondPerGpu(), maxY)));
            }
            sb.append("\"/>\n");
        }
        for (ServingPrediction s : pareto) {
            double px = x(s.tpotSeconds() * 1e3, maxX), py = y(s.tokensPerSecondPerGpu(), maxY);
            sb.append(f(
                    "<circle class=\"setup\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" stroke=\"#274\" fill=\"%s\"><title>%s"
                            + "</title></circle>%n",
                    px, py, s.equals(winner) ? "#274" : "white", RooflineChart.esc(label(s))));
            // labels of the right-hand points run leftwards, inside the chart
            boolean right = px > LEFT + 0.6 * (W - LEFT - RIGHT);
            sb.append(f(
                    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>%n",
                    right ? px - 8 : px + 8, py - 6, right ? "end" : "start", RooflineChart.esc(shortLabel(s))));
        }
        return sb.append("</svg>\n").toString();
    }

    private static String title(List<ServingPrediction> pareto) {
        if (pareto.isEmpty()) {
            return "no setup meets the targets";
        }
        ServingPrediction s = pareto.getFirst();
        return s.model().name() + " on " + s.deployment().gpus() + " x "
                + s.hardware().name() + ": Pareto set";
    }

    private static String shortLabel(ServingPrediction s) {
        Deployment d = s.deployment();
        return f(
                "TP%d PP%d %s x%d",
                d.tensorParallel(), d.pipelineParallel(), s.weights().displayName(), s.concurrency());
    }

    private static String label(ServingPrediction s) {
        return f(
                "%s: TTFT %.1f ms, TPOT %.2f ms, %.1f tokens/s per GPU",
                shortLabel(s), s.ttftSeconds() * 1e3, s.tpotSeconds() * 1e3, s.tokensPerSecondPerGpu());
    }

    private static double x(double v, double max) {
        return LEFT + v / max * (W - LEFT - RIGHT);
    }

    private static double y(double v, double max) {
        return H - BOTTOM - v / max * (H - TOP - BOTTOM);
    }

    private static String f(String format, Object... v) {
        return String.format(Locale.ROOT, format, v);
    }
}
