package dev.roofline.cuda.bench;

import dev.roofline.core.energy.EnergyReading;
import dev.roofline.core.energy.PowerMeter;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.roofline.Roofline;

import java.util.List;
import java.util.Locale;

/**
 * Predicted-vs-measured as CSV and as a text table; predictions from the datasheet and from measured ceilings; the
 * energy columns are filled when a {@link PowerMeter} measured the product and left empty otherwise.
 */
public final class Report {
    static final String CSV_HEADER = "label,m,n,k,weights,activations,output,flops,bytes,median_us,min_us,p90_us,samples,"
            + "tflops,gbps,datasheet_us,datasheet_error_pct,measured_ceiling_us,measured_ceiling_error_pct,bound,failure,"
            + "joules_per_op,gflops_per_watt,avg_watts,peak_watts,throttled,min_sm_mhz,clock_event_reasons,"
            + "energy_launches,energy_gpu_s,energy_meter_s,energy_source";
    private static final String NO_ENERGY = ",".repeat(11);

    private Report() {}

    public static String csv(List<Sweep.Row> rows, Hardware measured) {
        StringBuilder sb = new StringBuilder(CSV_HEADER).append('\n');
        Roofline mr = Roofline.on(measured);
        for (Sweep.Row r : rows) {
            Gemm g = r.gemm();
            sb.append(String.join(",", quote(r.label()), Long.toString(g.m()), Long.toString(g.n()), Long.toString(g.k()),
                    g.weights().shortName(), g.activations().shortName(), g.output().shortName(),
                    Long.toString(g.flops()), Long.toString(g.bytes())));
            if (r.measurement() == null) {
                sb.append(",,,,,,,,,,,,").append(quote(r.failure())).append(NO_ENERGY).append('\n');
                continue;
            }
            Measurement m = r.measurement();
            Measurement mm = m.against(mr.predict(g));
            TimingStats t = m.time();
            sb.append(fmt(",%.3f,%.3f,%.3f,%d,%.2f,%.1f,%.3f,%.2f,%.3f,%.2f,%s,", t.medianMicros(), t.minMicros(),
                    t.p90Micros(), t.samples(), m.teraFlopsPerSecond(), m.gigabytesPerSecond(),
                    m.prediction().timeMicros(), m.errorPercent(), mm.prediction().timeMicros(), mm.errorPercent(),
                    mm.prediction().bound().name().toLowerCase(Locale.ROOT)));
            sb.append(m.energy().map(e -> {
                EnergyReading er = e.reading();
                return fmt(",%.6g,%.2f,%.1f,%.1f,%b,%d,%s,%d,%.4f,%.4f,%s", e.joulesPerOperation(),
                        e.gigaflopsPerWatt(g.flops()), er.averageWatts(), er.peakWatts(), er.throttled(), er.minSmClockMHz(),
                        quote(er.clockLimitReasonNames()), e.operations(), e.gpuSeconds(), er.seconds(), quote(er.energySource().name()));
            }).orElse(NO_ENERGY)).append('\n');
        }
        return sb.toString();
    }

    public static String table(List<Sweep.Row> rows, Hardware measured) {
        StringBuilder sb = new StringBuilder(fmt("%-28s %-16s %10s %9s %9s %10s %8s %10s %8s %-7s %10s %8s %6s %6s %s%n",
                "product", "shape MxNxK", "median us", "TFLOPS", "GB/s", "sheet us", "err %", "meas. us", "err %", "bound",
                "mJ/op", "GFLOPS/W", "avg W", "peak W", "throttled"));
        Roofline mr = Roofline.on(measured);
        for (Sweep.Row r : rows) {
            Gemm g = r.gemm();
            String shape = g.m() + "x" + g.n() + "x" + g.k();
            if (r.measurement() == null) {
                sb.append(fmt("%-28s %-16s failed: %s%n", r.label(), shape, r.failure()));
                continue;
            }
            Measurement m = r.measurement();
            Prediction p = mr.predict(g);
            Measurement mm = m.against(p);
            sb.append(fmt("%-28s %-16s %10.2f %9.1f %9.0f %10.2f %+8.1f %10.2f %+8.1f %-7s", r.label(), shape,
                    m.time().medianMicros(), m.teraFlopsPerSecond(), m.gigabytesPerSecond(), m.prediction().timeMicros(),
                    m.errorPercent(), p.timeMicros(), mm.errorPercent(), p.bound().name().toLowerCase(Locale.ROOT)));
            sb.append(m.energy().map(e -> fmt(" %10.3f %8.1f %6.0f %6.0f %s", e.joulesPerOperation() * 1e3,
                    e.gigaflopsPerWatt(g.flops()), e.reading().averageWatts(), e.reading().peakWatts(),
                    e.reading().throttled() ? "yes " + e.reading().clockLimitReasonNames() : "no")).orElse("")).append('\n');
        }
        sb.append("err % = (measured / predicted - 1) x 100; 'sheet' uses datasheet ceilings, 'meas.' the ceilings measured on this device"
                + (measured.kernelLatencySeconds() > 0 ? String.format(Locale.ROOT, " plus its kernel latency (%.2f us per product)",
                        measured.kernelLatencySeconds() * 1e6) : "") + ".\n");
        if (rows.stream().anyMatch(r -> r.measurement() != null && r.measurement().energy().isPresent())) {
            sb.append("energy: each product again back to back for >= ").append(Benchmark.ENERGY_PHASE_SECONDS)
                    .append(" s of GPU time inside one PowerMeter session; mJ/op = joules / launches, GFLOPS/W = FLOPs x launches / joules / 1e9.\n");
        }
        return sb.toString();
    }

    /** One row in brief: product, shape, median, rate, joules per product when measured, or the failure. */
    public static String line(Sweep.Row r) {
        Gemm g = r.gemm();
        String head = fmt("%-28s %dx%dx%d", r.label(), g.m(), g.n(), g.k());
        Measurement m = r.measurement();
        if (m == null) {
            return head + " failed: " + r.failure();
        }
        return head + fmt(" %.2f us %.1f TFLOPS", m.time().medianMicros(), m.teraFlopsPerSecond())
                + m.energy().map(e -> fmt(" %.3f mJ %.1f GFLOPS/W avg %.0f W peak %.0f W min SM %d MHz%s", e.joulesPerOperation() * 1e3,
                        e.gigaflopsPerWatt(g.flops()), e.reading().averageWatts(), e.reading().peakWatts(),
                        e.reading().minSmClockMHz(), e.reading().throttled() ? " throttled " + e.reading().clockLimitReasonNames() : ""))
                .orElse("");
    }

    static String quote(String s) {
        if (s == null) {
            return "";
        }
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    private static String fmt(String f, Object... args) {
        return String.format(Locale.ROOT, f, args);
    }
}
