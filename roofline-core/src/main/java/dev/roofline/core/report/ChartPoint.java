package dev.roofline.core.report;

import dev.roofline.core.internal.Checks;

/**
 * A point on a roofline chart.
 *
 * @param measured true for a measured kernel (drawn as a square), false for a prediction (a circle)
 */
public record ChartPoint(String label, double flopsPerByte, double flopsPerSecond, boolean measured) {

    public ChartPoint {
        Checks.notBlank("label", label);
        Checks.positive("flopsPerByte", flopsPerByte);
        Checks.positive("flopsPerSecond", flopsPerSecond);
    }
}
