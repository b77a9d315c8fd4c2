package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Ceiling;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Source;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.blas.CublasLt;
import dev.roofline.cuda.blas.MatmulOptions;

import java.time.LocalDate;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Ceilings measured on the device itself: device-to-device copy bandwidth (bytes read plus bytes written) and the
 * peak rate of a large cuBLASLt product per precision. {@link #applyTo} turns a datasheet {@link Hardware} into one
 * whose predictions use them.
 *
 * @param gpu                 device name
 * @param date                when measured
 * @param copyBytesPerSecond  2 x bytes copied / median copy time
 * @param copyHow             how the copy was measured
 * @param peakFlopsPerSecond  per operand precision
 * @param peakHow             how the peaks were measured
 * @param failures            precisions whose peak could not be measured, and why
 */
public record DeviceCeilings(String gpu, LocalDate date, double copyBytesPerSecond, String copyHow,
                             Map<Precision, Double> peakFlopsPerSecond, String peakHow, Map<Precision, String> failures) {

    public DeviceCeilings {
        peakFlopsPerSecond = Collections.unmodifiableMap(new EnumMap<>(peakFlopsPerSecond.isEmpty()
                ? new EnumMap<>(Precision.class) : peakFlopsPerSecond));
        failures = Map.copyOf(failures);
    }

    /** Copies {@code copyBytes} device-to-device and runs an {@code n}³ product in each precision. */
    public static DeviceCeilings measure(CublasLt lt, Device device, Stream stream, long copyBytes, long n,
                                         List<Precision> precisions, BenchmarkOptions o) {
        double copy;
        try (DeviceBuffer src = DeviceBuffer.allocate(copyBytes); DeviceBuffer dst = DeviceBuffer.allocate(copyBytes)) {
            src.fill(0x5A);
            TimingStats t = Benchmark.time(stream, o.withL2Cold(false), 1,
                    i -> dst.copyFromAsync(src, copyBytes, stream));
            copy = 2.0 * copyBytes / t.medianSeconds();
        }
        Map<Precision, Double> peaks = new EnumMap<>(Precision.class);
        Map<Precision, String> failures = new EnumMap<>(Precision.class);
        Roofline datasheet = Roofline.on(device.hardware());
        for (Precision p : precisions) {
            Gemm g = Sweep.gemmFor(Gemm.of(n, n, n), p);
            try {
                Measurement m = GemmBenchmark.measure(lt, device, stream, g, datasheet, o, MatmulOptions.defaults().withAlgorithms(GemmBenchmark.CANDIDATES));
                peaks.put(p, g.flops() / m.time().medianSeconds());
            } catch (RuntimeException e) {
                failures.put(p, e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        return new DeviceCeilings(device.name(), LocalDate.now(), copy,
                "cudaMemcpyAsync device-to-device of " + (copyBytes >> 20) + " MiB, bytes read + written, " + how(o),
                peaks, "cuBLASLt " + n + "^3 on random data, fastest of " + GemmBenchmark.CANDIDATES + " heuristic algorithms (brief screen, "
                        + GemmBenchmark.FINALISTS + " timed in full), "
                        + how(o), failures);
    }

    /** {@code hw} with the measured bandwidth and, for each measured precision, the measured peak. */
    public Hardware applyTo(Hardware hw) {
        Hardware h = hw.withMemoryBandwidth(copyBytesPerSecond, Source.measured(gpu, date, copyHow));
        for (Map.Entry<Precision, Double> e : peakFlopsPerSecond.entrySet()) {
            h = h.withCeiling(new Ceiling(e.getKey(), e.getValue(), Ceiling.Unit.TENSOR_CORE, Source.measured(gpu, date, peakHow)));
        }
        return h;
    }

    private static String how(BenchmarkOptions o) {
        return "median of " + o.repetitions() + " samples of " + o.launchesPerSample() + " launches"
                + (o.backToBack() ? ", back to back" : ", each waiting for the last");
    }
}
