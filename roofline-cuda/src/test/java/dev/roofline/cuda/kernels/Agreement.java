package dev.roofline.cuda.kernels;

import static org.assertj.core.api.Assertions.assertThat;

/** How close a kernel's output is to its reference, bounded two ways and reported with the worst element. */
public final class Agreement {
    private Agreement() {}

    /**
     * Asserts ||y - ref|| / ||ref|| below {@code relative} and max |y - ref| / max |ref| below {@code worst}; a NaN in
     * {@code y} counts as the worst element and fails both.
     */
    public static void check(String what, double[] y, double[] ref, double relative, double worst) {
        assertThat(y).hasSameSizeAs(ref);
        double err = 0;
        double norm = 0;
        double largestError = 0;
        double largest = 0;
        int worstAt = 0;
        for (int i = 0; i < y.length; i++) {
            err += (y[i] - ref[i]) * (y[i] - ref[i]);
            norm += ref[i] * ref[i];
            if (!(Math.abs(y[i] - ref[i]) <= largestError)) {
                largestError = Math.abs(y[i] - ref[i]);
                worstAt = i;
            }
            largest = Math.max(largest, Math.abs(ref[i]));
        }
        String at = what + "; worst at " + worstAt + ": " + y[worstAt] + " against " + ref[worstAt];
        assertThat(Math.sqrt(err / norm)).as("||y - ref|| / ||ref||, " + at).isLessThan(relative);
        assertThat(largestError / largest)
                .as("max |y - ref| / max |ref|, " + at)
                .isLessThan(worst);
    }
}
