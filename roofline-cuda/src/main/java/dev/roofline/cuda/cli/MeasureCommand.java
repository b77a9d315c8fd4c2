package dev.roofline.cuda.cli;

import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Converters;
import dev.roofline.core.cli.Option;
import dev.roofline.core.cli.UsageException;
import dev.roofline.core.energy.PowerMeter;
import dev.roofline.core.energy.PowerMeters;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.report.PrecisionComparison;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.bench.BenchmarkOptions;
import dev.roofline.cuda.bench.BenchmarkResult;
import dev.roofline.cuda.bench.DeviceCeilings;
import dev.roofline.cuda.bench.GemmVariant;
import dev.roofline.cuda.bench.Report;
import dev.roofline.cuda.bench.ReportFormat;
import dev.roofline.cuda.bench.Sweep;
import dev.roofline.cuda.blas.CublasLt;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code roofline measure [--hw NAME] [--csv FILE] [--quick]}: with a GPU, measures its ceilings, compares timing
 * methods on 8192^3 products, and times FP16, BF16, FP8 (also with fast accumulation) and INT8 GEMMs and GEMVs beside
 * their roofline predictions, with joules per product when a {@link PowerMeter} (roofline-nvml) is on the module or
 * class path; without a GPU, says why and prints the predictions for {@code --hw} (default h200). Either way it
 * starts with the roofline calculator's default view (a 4096×4096 GEMV on GB10, or on {@code --hw}).
 *
 * <p>{@code --csv FILE} writes the measured sweep with a GPU and the printed predictions without one (never silently
 * nothing): the output names which. The file's folder is checked before any work, and the file is written whole or
 * not at all (a temporary file beside it, then renamed).
 */
public final class MeasureCommand implements Command {
    static final List<Precision> PRECISIONS =
            List.of(Precision.FP16, Precision.BF16, Precision.FP8_E4M3, Precision.INT8);
    /** The sweep's products: each precision, and FP8 again with fast accumulation, labelled apart. */
    static final List<GemmVariant> VARIANTS = List.of(
            GemmVariant.of(Precision.FP16),
            GemmVariant.of(Precision.BF16),
            GemmVariant.of(Precision.FP8_E4M3),
            new GemmVariant(Precision.FP8_E4M3, true),
            GemmVariant.of(Precision.INT8));

    static final List<Gemm> SHAPES = List.of(
            Gemm.gemv(8192, 8192),
            Gemm.of(16, 8192, 8192),
            Gemm.of(128, 8192, 8192),
            Gemm.of(1024, 8192, 8192),
            Gemm.of(8192, 8192, 8192));

    static final Option<Hardware> HW = Option.of(
            "--hw",
            "NAME",
            "hardware of the calculator view and, without a GPU, of the predictions (default gb10 and h200)",
            null,
            Converters.hardware());
    static final Option<Path> CSV = Option.of(
            "--csv",
            "FILE",
            "also write the sweep as CSV; without a GPU, the predictions printed (its folder must exist)",
            null,
            Converters.path());
    static final Option<Boolean> QUICK =
            Option.flag("--quick", "10 repetitions, two shapes and no timing-method comparison");

    @Override
    public String name() {
        return "measure";
    }

    @Override
    public String summary() {
        return "the main job: the calculator's view, then this GPU's ceilings and cuBLASLt products beside their predictions";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(HW, CSV, QUICK);
    }

    @Override
    public void run(Arguments args, PrintStream out, PrintStream err) throws IOException {
        Path csv = args.find(CSV).orElse(null);
        if (csv != null) {
            requireWritableLocation(csv);
        }
        // the main job first: the roofline calculator's view (GB10 unless --hw says otherwise), GPU or not
        out.print(PrecisionComparison.defaults(args.find(HW).orElse(Hardware.GB10))
                .text());
        out.println();
        if (!Cuda.isAvailable()) {
            out.println(Cuda.unavailableReason().orElseThrow() + " - nothing measured");
            Hardware hw = args.find(HW).orElse(Hardware.H200);
            out.println("Predictions only, for " + hw.name() + " (datasheet ceilings):");
            List<PredictedProduct> rows = PredictedProduct.sweep(hw, SHAPES, PRECISIONS);
            out.print(Report.render(PredictedProduct.TABLE, rows, ReportFormat.TEXT));
            if (csv != null) {
                write(csv, Report.render(PredictedProduct.TABLE, rows, ReportFormat.CSV));
                out.println("CSV (predictions only, no GPU): " + csv);
            }
            return;
        }
        measure(out, csv, args.has(QUICK));
    }

    /**
     * Fails before any work when {@code --csv} cannot be written: a measurement takes minutes, and its result must not
     * be lost to a typo in the folder.
     */
    static void requireWritableLocation(Path csv) {
        Path absolute = csv.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            throw new UsageException("--csv " + csv + " is a directory; give a file name");
        }
        Path folder = absolute.getParent();
        if (folder == null || !Files.isDirectory(folder)) {
            throw new UsageException("--csv " + csv + ": no such directory " + folder);
        }
        if (!Files.isWritable(folder)) {
            throw new UsageException("--csv " + csv + ": directory " + folder + " is not writable");
        }
    }

    private static void measure(PrintStream out, Path csv, boolean quick) throws IOException {
        Device device = Cuda.device(0);
        out.println(device);
        out.printf(
                Locale.ROOT,
                "CUDA runtime %d, driver %d, cuBLASLt %d%n",
                Cuda.runtimeVersion(),
                Cuda.driverVersion(),
                CublasLt.version());
        Hardware sheet = device.hardware();
        out.println("hardware: " + sheet.name() + ", datasheet bandwidth "
                + Math.round(sheet.memoryBytesPerSecond() / 1e9) + " GB/s");
        out.print(predictions(sheet));
        BenchmarkOptions o = quick ? BenchmarkOptions.defaults().withRepetitions(10) : BenchmarkOptions.defaults();
        Optional<PowerMeter> meter = PowerMeters.installed();
        out.println(
                meter.map(m -> "energy: " + m.name() + " PowerMeter, " + device.uuid())
                        .orElse(
                                "energy: no PowerMeter found (put roofline-nvml on the module or class path for joules per product)"));
        try (CublasLt lt = CublasLt.create();
                Stream stream = Stream.create()) {
            stamp(out, "ceilings");
            DeviceCeilings c = DeviceCeilings.measure(lt, device, stream, 1L << 30, 8192, PRECISIONS, o);
            out.printf(
                    Locale.ROOT,
                    "measured copy bandwidth: %.0f GB/s, kernel latency %.2f us (%s)%n",
                    c.copyBytesPerSecond() / 1e9,
                    c.kernelLatencySeconds() * 1e6,
                    c.copyHow());
            c.peakFlopsPerSecond()
                    .forEach((p, f) -> out.printf(
                            Locale.ROOT, "measured peak %-9s %7.1f TFLOPS at 8192^3%n", p.displayName(), f / 1e12));
            out.println("(" + c.peakHow() + ")");
            c.failures().forEach((p, why) -> out.println("peak " + p.displayName() + " not measured: " + why));
            if (!quick) {
                stamp(out, "timing methods");
                TimingComparison.print(out, lt, device, stream, 8192, TimingComparison.defaultVariants());
            }
            Hardware measured = c.applyTo(sheet);
            stamp(out, "sweep");
            List<BenchmarkResult> rows = Sweep.run(
                    lt,
                    device,
                    stream,
                    quick ? SHAPES.subList(0, 2) : SHAPES,
                    VARIANTS,
                    Roofline.on(measured),
                    o,
                    meter,
                    r -> out.println("  " + Report.line(r)));
            stamp(out, "done");
            out.print(Report.table(rows));
            if (csv != null) {
                write(csv, Report.csv(rows));
                out.println("CSV: " + csv);
            }
        }
    }

    /** Writes {@code text} to {@code file} whole or not at all: a temporary file beside it, then an atomic rename. */
    static void write(Path file, String text) throws IOException {
        writeAll(Map.of(file, text));
    }

    /**
     * Writes each file whole or not at all: every text to a temporary file beside its target first, then each renamed
     * atomically, so no file is ever half-written and none is renamed before all are written.
     */
    static void writeAll(Map<Path, String> files) throws IOException {
        Map<Path, Path> temps = new LinkedHashMap<>();
        try {
            for (Map.Entry<Path, String> e : files.entrySet()) {
                Path target = e.getKey().toAbsolutePath();
                Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".partial");
                temps.put(target, temp);
                Files.writeString(temp, e.getValue());
            }
            for (Map.Entry<Path, Path> e : temps.entrySet()) {
                Files.move(
                        e.getValue(), e.getKey(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            for (Path temp : temps.values()) {
                Files.deleteIfExists(temp);
            }
            Object what = files.size() == 1 ? files.keySet().iterator().next() : files.keySet();
            throw new IOException("cannot write " + what + ": " + e.getMessage(), e);
        }
    }

    /** The predictions for {@code hw} as the command prints them. */
    static String predictions(Hardware hw) {
        return Report.render(PredictedProduct.TABLE, PredictedProduct.sweep(hw, SHAPES, PRECISIONS), ReportFormat.TEXT);
    }

    /** A wall-clock mark, to line the output up with a clock and power log taken beside it. */
    private static void stamp(PrintStream out, String phase) {
        out.println("[" + Instant.now() + "] " + phase);
    }
}
