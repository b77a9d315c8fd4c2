package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Ceiling;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Source;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.blas.CublasLt;
import dev.roofline.cuda.blas.MatmulOptions;

import java.time.LocalDate;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Ceilings measured on the device itself: device-to-device copy bandwidth (bytes read plus bytes written), the fixed
 * cost of one kernel, and the peak rate of a large cuBLASLt product per precision. {@link #applyTo} turns a datasheet
 * {@link Hardware} into one whose predictions use them. Bandwidth and latency come from one {@link CopyFit}: a copy of
 * {@value #SMALL_COPY_MIB} MiB and one of {@code copyBytes}, both L2-cold (rotated over buffer pairs) and timed alike; the
 * bandwidth is the slope between them, the latency the intercept (clamped at 0). Time the copies as the kernels they
 * are compared with are timed; captured in a CUDA graph, keep {@code copyBytes} at 256 MiB or less: on an H200 a 1 GiB
 * copy in a graph runs at about 2.7 TB/s against 4.3 TB/s for 32–235 MiB copies (docs/design/gemv-kernels.md).
 *
 * @param gpu                  device name
 * @param date                 when measured
 * @param copyBytesPerSecond   extra bytes read + written per extra second between the two copies
 * @param kernelLatencySeconds the copy line's time at zero bytes: launch, ramp-up and drain of one kernel
 * @param copyHow              how the copies were measured
 * @param peakFlopsPerSecond  per operand precision
 * @param peakHow             how the peaks were measured
 * @param failures            precisions whose peak could not be measured, and why
 */
public record DeviceCeilings(
        String gpu,
        LocalDate date,
        double copyBytesPerSecond,
        double kernelLatencySeconds,
        String copyHow,
        Map<Precision, Double> peakFlopsPerSecond,
        String peakHow,
        Map<Precision, String> failures) {

    /** The smaller copy of the fit, in MiB: the size of a decode GEMV's weights (e.g. 4096 x 4096 in FP16). */
    public static final int SMALL_COPY_MIB = 32;

    public DeviceCeilings {
        peakFlopsPerSecond = Collections.unmodifiableMap(
                new EnumMap<>(peakFlopsPerSecond.isEmpty() ? new EnumMap<>(Precision.class) : peakFlopsPerSecond));
        failures = Map.copyOf(failures);
    }

    /**
     * Copies {@value #SMALL_COPY_MIB} MiB and {@code copyBytes} device-to-device, timed with {@code o}, and runs an
     * {@code n}³ product in each precision.
     *
     * @throws IllegalArgumentException when {@code copyBytes} is not larger than {@value #SMALL_COPY_MIB} MiB
     * @throws IllegalStateException    when the two copies do not lie on a line with a non-negative intercept (beyond 5 %
     *                                  of the small copy's time, for noise): the larger one ran slower than streaming,
     *                                  as a 1 GiB copy captured in a CUDA graph did on an H200
     */
    public static DeviceCeilings measure(
            CublasLt lt,
            Device device,
            Stream stream,
            long copyBytes,
            long n,
            List<Precision> precisions,
            BenchmarkOptions o) {
        long small = (long) SMALL_COPY_MIB << 20;
        if (copyBytes <= small) {
            throw new IllegalArgumentException("copyBytes must be larger than the " + SMALL_COPY_MIB
                    + " MiB copy it is fitted against, got " + copyBytes);
        }
        BenchmarkOptions cold = o.withL2Cold(true);
        int smallSets = cold.inputSets(device.l2Bytes(), 2 * small);
        int largeSets = cold.inputSets(device.l2Bytes(), 2 * copyBytes);
        double smallSeconds = Benchmark.copy(stream, small, smallSets, o).medianSeconds();
        double largeSeconds = Benchmark.copy(stream, copyBytes, largeSets, o).medianSeconds();
        CopyFit fit = CopyFit.through(2 * small, smallSeconds, 2 * copyBytes, largeSeconds);
        if (fit.interceptSeconds() < -0.05 * smallSeconds) {
            throw new IllegalStateException(String.format(
                    Locale.ROOT,
                    "the copies do not lie on a line: %d MiB took %.2f us and %d MiB "
                            + "%.2f us, an intercept of %.2f us; the larger copy ran slower than streaming (in a CUDA graph, keep copyBytes "
                            + "at 256 MiB or less)",
                    SMALL_COPY_MIB,
                    smallSeconds * 1e6,
                    copyBytes >> 20,
                    largeSeconds * 1e6,
                    fit.interceptSeconds() * 1e6));
        }
        Map<Precision, Double> peaks = new EnumMap<>(Precision.class);
        Map<Precision, String> failures = new EnumMap<>(Precision.class);
        Roofline datasheet = Roofline.on(device.hardware());
        for (Precision p : precisions) {
            Gemm g = Sweep.gemmFor(Gemm.of(n, n, n), p);
            try {
                Measurement m = GemmBenchmark.measure(
                        lt,
                        device,
                        stream,
                        g,
                        datasheet,
                        o,
                        MatmulOptions.defaults().withAlgorithms(GemmBenchmark.CANDIDATES));
                // the kernel latency is added back by every prediction, so it is no part of the peak
                double t = m.time().medianSeconds(), busy = t - fit.latencySeconds();
                peaks.put(p, g.flops() / (busy > 0 ? busy : t));
            } catch (RuntimeException e) {
                failures.put(p, e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        return new DeviceCeilings(
                device.name(),
                LocalDate.now(),
                fit.bytesPerSecond(),
                fit.latencySeconds(),
                String.format(
                        Locale.ROOT,
                        "line through cudaMemcpyAsync device-to-device copies of %d MiB (%.2f us) and %d MiB "
                                + "(%.2f us), L2-cold over %d and %d buffer pairs, bytes read + written: slope %.0f GB/s, intercept %.2f us; %s",
                        SMALL_COPY_MIB,
                        smallSeconds * 1e6,
                        copyBytes >> 20,
                        largeSeconds * 1e6,
                        smallSets,
                        largeSets,
                        fit.bytesPerSecond() / 1e9,
                        fit.interceptSeconds() * 1e6,
                        how(o)),
                peaks,
                "FLOPs / (median time - kernel latency) of cuBLASLt " + n + "^3 on random data, fastest of "
                        + GemmBenchmark.CANDIDATES + " heuristic algorithms (brief screen, "
                        + GemmBenchmark.FINALISTS + " timed in full), "
                        + how(o),
                failures);
    }

    /** {@code hw} with the measured bandwidth and kernel latency and, for each measured precision, the measured peak. */
    public Hardware applyTo(Hardware hw) {
        Hardware h = hw.withMemoryBandwidth(copyBytesPerSecond, Source.measured(gpu, date, copyHow))
                .withKernelLatency(kernelLatencySeconds, Source.measured(gpu, date, copyHow));
        for (Map.Entry<Precision, Double> e : peakFlopsPerSecond.entrySet()) {
            h = h.withCeiling(new Ceiling(
                    e.getKey(), e.getValue(), Ceiling.Unit.TENSOR_CORE, Source.measured(gpu, date, peakHow)));
        }
        return h;
    }

    private static String how(BenchmarkOptions o) {
        return "median of " + o.repetitions() + " samples of " + o.launchesPerSample() + " launches"
                + (o.backToBack() ? ", back to back" : ", each waiting for the last");
    }
}
