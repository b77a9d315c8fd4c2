package dev.roofline.core.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.roofline.core.report.RooflineChart.esc;
import static dev.roofline.core.report.RooflineChart.f;

/**
 * The points of a {@link RooflineChart}: a marker each (filled circle, filled square or hollow circle by
 * {@link ChartPoint.Marker}), the dashed line joining a measured operator to its prediction, and labels.
 */
final class ChartMarks {
    private ChartMarks() {}

    /** What hovering over a point shows: its label, then its detail. */
    static String tooltip(ChartPoint p) {
        return p.detail().isEmpty() ? p.label() : p.label() + "\n" + p.detail();
    }

    static void draw(StringBuilder s, List<ChartPoint> points, RooflineChart.Axes ax) {
        // a measured operator is joined to its predicted point, which carries the label for both
        Map<String, double[]> predicted = new HashMap<>();
        for (ChartPoint p : points) {
            if (p.marker() == ChartPoint.Marker.PREDICTED) {
                predicted.put(p.label(), new double[] {ax.x(p.flopsPerByte()), ax.y(p.flopsPerSecond())});
            }
        }
        // points closer than 12 px share one label listing their names
        List<List<ChartPoint>> groups = new ArrayList<>();
        List<double[]> centres = new ArrayList<>();
        for (ChartPoint p : points) {
            double x = ax.x(p.flopsPerByte());
            double y = ax.y(p.flopsPerSecond());
            switch (p.marker()) {
                case PREDICTED ->
                    s.append(f(
                            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#444\"><title>%s</title></circle>%n",
                            x, y, esc(tooltip(p))));
                case MEASURED ->
                    s.append(f(
                            "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"#e6550d\"><title>%s</title></rect>%n",
                            x - 5, y - 5, esc(tooltip(p))));
                case MEASURED_OPERATOR -> {
                    double[] twin = predicted.get(p.label());
                    if (twin != null) {
                        s.append(f(
                                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\" stroke-width=\"0.8\" stroke-dasharray=\"2,2\"/>%n",
                                twin[0], twin[1], x, y));
                    }
                    s.append(f(
                            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"none\" stroke=\"#444\" stroke-width=\"1.5\"><title>%s</title></circle>%n",
                            x, y, esc(p.detail().isEmpty() ? p.label() + " measured" : tooltip(p))));
                    if (twin != null) {
                        continue;
                    }
                }
            }
            int g = -1;
            for (int i = 0; i < groups.size(); i++) {
                if (Math.hypot(centres.get(i)[0] - x, centres.get(i)[1] - y) < 12
                        && groups.get(i).getFirst().marker() == p.marker()) {
                    g = i;
                }
            }
            if (g < 0) {
                groups.add(new ArrayList<>());
                centres.add(new double[] {x, y});
                g = groups.size() - 1;
            }
            groups.get(g).add(p);
        }
        List<double[]> placed = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            List<String> lines =
                    wrap(groups.get(i).stream().map(ChartPoint::label).toList(), 44);
            double x = centres.get(i)[0] + 8;
            double y = centres.get(i)[1] + 4 - 11 * (lines.size() - 1) / 2.0;
            for (double[] q : placed) {
                if (Math.abs(q[0] - x) < 120 && y < q[2] + 6 && y + 11 * lines.size() > q[1]) {
                    y = q[2] + 12; // below the earlier label it would overlap
                }
            }
            placed.add(new double[] {x, y - 10, y + 11 * (lines.size() - 1)});
            String color = groups.get(i).getFirst().marker() == ChartPoint.Marker.MEASURED ? "#e6550d" : "#333";
            for (int l = 0; l < lines.size(); l++) {
                s.append(f(
                        "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"%s\">%s</text>%n",
                        x, y + 11 * l, color, esc(lines.get(l))));
            }
        }
    }

    private static List<String> wrap(List<String> names, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String n : names) {
            if (!line.isEmpty() && line.length() + n.length() + 2 > width) {
                lines.add(line.append(',').toString());
                line.setLength(0);
            }
            line.append(line.isEmpty() ? "" : ", ").append(n);
        }
        lines.add(line.toString());
        return lines;
    }
}
