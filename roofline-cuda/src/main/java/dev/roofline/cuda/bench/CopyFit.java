package dev.roofline.cuda.bench;

/**
 * A straight line through two device-to-device copy timings, {@code time = latency + bytesMoved / bandwidth}, with
 * bytes moved = bytes read + bytes written. The slope gives the streaming bandwidth; the intercept is what any
 * kernel costs before its first byte counts: launch, ramp-up and drain (the Hockney latency-bandwidth model).
 *
 * <pre>{@code
 * CopyFit f = CopyFit.through(64L << 20, 17.0e-6, 2L << 30, 503.0e-6);
 * f.bytesPerSecond();   // (2 GiB - 64 MiB) / 486 µs
 * f.latencySeconds();   // 17 µs - 64 MiB / that bandwidth
 * }</pre>
 *
 * @param bytesPerSecond   slope: extra bytes moved per extra second
 * @param interceptSeconds the line's time at zero bytes; negative only when timing noise exceeds the latency
 */
public record CopyFit(double bytesPerSecond, double interceptSeconds) {

    public CopyFit {
        if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond) || !Double.isFinite(interceptSeconds)) {
            throw new IllegalArgumentException("need a finite bandwidth > 0 and a finite intercept, got "
                    + bytesPerSecond + " B/s and " + interceptSeconds + " s");
        }
    }

    /**
     * The line through (smallBytes, smallSeconds) and (largeBytes, largeSeconds).
     *
     * @throws IllegalArgumentException when the sizes are not 0 &lt; small &lt; large, a time is not positive, or the larger
     *                                  copy did not take longer (no bandwidth can be read from such timings)
     */
    public static CopyFit through(long smallBytes, double smallSeconds, long largeBytes, double largeSeconds) {
        if (smallBytes <= 0 || largeBytes <= smallBytes) {
            throw new IllegalArgumentException(
                    "need 0 < smallBytes < largeBytes, got " + smallBytes + " and " + largeBytes);
        }
        if (!(smallSeconds > 0)
                || !(largeSeconds > 0)
                || Double.isInfinite(smallSeconds)
                || Double.isInfinite(largeSeconds)) {
            throw new IllegalArgumentException(
                    "copy times must be finite and > 0, got " + smallSeconds + " s and " + largeSeconds + " s");
        }
        if (largeSeconds <= smallSeconds) {
            throw new IllegalArgumentException("the " + largeBytes + "-byte copy (" + largeSeconds
                    + " s) did not take longer than the " + smallBytes + "-byte one (" + smallSeconds + " s)");
        }
        double bw = (largeBytes - smallBytes) / (largeSeconds - smallSeconds);
        return new CopyFit(bw, smallSeconds - smallBytes / bw);
    }

    /** The intercept as a kernel latency: never below 0. */
    public double latencySeconds() {
        return Math.max(0, interceptSeconds);
    }

    /** The line's time for {@code bytesMoved}. */
    public double seconds(double bytesMoved) {
        return interceptSeconds + bytesMoved / bytesPerSecond;
    }
}
