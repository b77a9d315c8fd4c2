package dev.roofline.core.report;

import dev.roofline.core.internal.Checks;

/**
 * A point on a roofline chart.
 *
 * @param marker how it is drawn, which says where it comes from
 * @param detail what a reader hovering over the point sees below its label (the operator's figures), or ""
 */
public record ChartPoint(String label, double flopsPerByte, double flopsPerSecond, Marker marker, String detail) {

    /** Where a point comes from, and so how it is drawn. */
    public enum Marker {
        /** What the roofline predicts for an operator: a filled circle. */
        PREDICTED,
        /** A measured kernel: a filled square. */
        MEASURED,
        /** An operator of a prediction as measured: a hollow circle beside its filled, predicted one. */
        MEASURED_OPERATOR
    }

    public ChartPoint {
        Checks.notBlank("label", label);
        Checks.positive("flopsPerByte", flopsPerByte);
        Checks.positive("flopsPerSecond", flopsPerSecond);
        Checks.notNull("marker", marker);
        Checks.notNull("detail", detail);
    }

    /** A point with no detail beyond its label. */
    public ChartPoint(String label, double flopsPerByte, double flopsPerSecond, Marker marker) {
        this(label, flopsPerByte, flopsPerSecond, marker, "");
    }

    /** A measured kernel ({@code measured}, a square) or a prediction (a circle). */
    public ChartPoint(String label, double flopsPerByte, double flopsPerSecond, boolean measured) {
        this(label, flopsPerByte, flopsPerSecond, measured ? Marker.MEASURED : Marker.PREDICTED);
    }

    /** True for a point that was measured rather than predicted. */
    public boolean measured() {
        return marker != Marker.PREDICTED;
    }
}
