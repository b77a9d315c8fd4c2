package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.roofline.Roofline;

import java.util.List;
import java.util.Locale;

/** Predicted-vs-measured as CSV and as a text table; predictions from the datasheet and from measured ceilings. */
public final class Report {
    static final String CSV_HEADER = "label,m,n,k,weights,activations,output,flops,bytes,median_us,min_us,p90_us,samples,"
            + "tflops,gbps,datasheet_us,datasheet_error_pct,measured_ceiling_us,measured_ceiling_error_pct,bound,failure";

    private Report() {}

    public static String csv(List<Sweep.Row> rows, Hardware measured) {
        StringBuilder sb = new StringBuilder(CSV_HEADER).append('\n');
        Roofline mr = Roofline.on(measured);
        for (Sweep.Row r : rows) {
            Gemm g = r.gemm();
            sb.append(String.join(",", quote(label(r)), Long.toString(g.m()), Long.toString(g.n()), Long.toString(g.k()),
                    g.weights().shortName(), g.activations().shortName(), g.output().shortName(),
                    Long.toString(g.flops()), Long.toString(g.bytes())));
            if (r.measurement() == null) {
                sb.append(",,,,,,,,,,,,").append(quote(r.failure())).append('\n');
                continue;
            }
            Measurement m = r.measurement();
            Measurement mm = m.against(mr.predict(g));
            TimingStats t = m.time();
            sb.append(fmt(",%.3f,%.3f,%.3f,%d,%.2f,%.1f,%.3f,%.2f,%.3f,%.2f,%s,", t.medianMicros(), t.minMicros(),
                    t.p90Micros(), t.samples(), m.teraFlopsPerSecond(), m.gigabytesPerSecond(),
                    m.prediction().timeMicros(), m.errorPercent(), mm.prediction().timeMicros(), mm.errorPercent(),
                    mm.prediction().bound().name().toLowerCase(Locale.ROOT))).append('\n');
        }
        return sb.toString();
    }

    public static String table(List<Sweep.Row> rows, Hardware measured) {
        StringBuilder sb = new StringBuilder(fmt("%-28s %-16s %10s %9s %9s %10s %8s %10s %8s %-7s%n", "product", "shape MxNxK",
                "median us", "TFLOPS", "GB/s", "sheet us", "err %", "meas. us", "err %", "bound"));
        Roofline mr = Roofline.on(measured);
        for (Sweep.Row r : rows) {
            Gemm g = r.gemm();
            String shape = g.m() + "x" + g.n() + "x" + g.k();
            if (r.measurement() == null) {
                sb.append(fmt("%-28s %-16s failed: %s%n", label(r), shape, r.failure()));
                continue;
            }
            Measurement m = r.measurement();
            Prediction p = mr.predict(g);
            Measurement mm = m.against(p);
            sb.append(fmt("%-28s %-16s %10.2f %9.1f %9.0f %10.2f %+8.1f %10.2f %+8.1f %-7s%n", label(r), shape,
                    m.time().medianMicros(), m.teraFlopsPerSecond(), m.gigabytesPerSecond(), m.prediction().timeMicros(),
                    m.errorPercent(), p.timeMicros(), mm.errorPercent(), p.bound().name().toLowerCase(Locale.ROOT)));
        }
        sb.append("err % = (measured / predicted - 1) x 100; 'sheet' uses datasheet ceilings, 'meas.' the ceilings measured on this device.\n");
        return sb.toString();
    }

    private static String label(Sweep.Row r) {
        return r.measurement() != null ? r.measurement().label()
                : r.gemm().weights().displayName() + " -> " + r.gemm().output().displayName();
    }

    private static String quote(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    private static String fmt(String f, Object... args) {
        return String.format(Locale.ROOT, f, args);
    }
}
