package dev.roofline.cuda.bench;

import java.util.Arrays;

/**
 * Summary of repeated timings.
 *
 * @param medianMicros middle value (mean of the two middle values for an even count)
 * @param minMicros    fastest
 * @param p90Micros    90th percentile, nearest rank
 * @param samples      how many timings
 */
public record TimingStats(double medianMicros, double minMicros, double p90Micros, int samples) {

    public static TimingStats of(double... micros) {
        if (micros.length == 0) {
            throw new IllegalArgumentException("need at least one timing");
        }
        double[] s = micros.clone();
        Arrays.sort(s);
        int n = s.length;
        double median = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
        double p90 = s[(int) Math.ceil(0.9 * n) - 1];
        return new TimingStats(median, s[0], p90, n);
    }

    public double medianSeconds() {
        return medianMicros * 1e-6;
    }
}
