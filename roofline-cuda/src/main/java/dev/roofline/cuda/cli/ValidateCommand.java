package dev.roofline.cuda.cli;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Converters;
import dev.roofline.core.cli.Option;
import dev.roofline.core.cli.UsageException;
import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.MemoryFacts;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.bench.BenchmarkOptions;
import dev.roofline.cuda.bench.DecodeStepBenchmark;
import dev.roofline.cuda.bench.DecodeStepResult;
import dev.roofline.cuda.bench.DeviceCeilings;
import dev.roofline.cuda.bench.GemvBenchmark;
import dev.roofline.cuda.bench.GemvBenchmarkOptions;
import dev.roofline.cuda.bench.GemvBenchmarkResults;
import dev.roofline.cuda.bench.Measurement;
import dev.roofline.cuda.bench.Validation;
import dev.roofline.cuda.blas.CublasLt;
import dev.roofline.cuda.decode.DecoderShape;
import dev.roofline.cuda.kernels.FatbinContents;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.KvCacheFormat;
import dev.roofline.cuda.kernels.NativeFp4Gemv;
import dev.roofline.cuda.kernels.WeightFormat;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code roofline validate [--out DIR] [--quick]}: measures what the registry claims about the GPU it runs on — copy
 * bandwidth and kernel latency, the dense peak of every precision cuBLASLt multiplies on it (FP16, BF16, INT8; FP8 from
 * compute capability 8.9; NVFP4 and MXFP8 from 10.0), roofline's GEMV kernels at M = 1 in every weight format, and how
 * the GPU holds memory (integrated, pageable access, free and total) — and writes {@code validation.md} and
 * {@code validation.json} to {@code DIR}: every registry figure beside its measurement and the ratio, and what roofline
 * built for this GPU but never ran on one. Unless {@code --no-decode}, it first runs {@code --model}'s decode step at
 * batch 1, context 1024 in FP16, FP8 and NVFP4 (profiled, with joules per token where a meter is installed) and writes
 * the calibration fitted to it as {@code calibration.json}, for {@code roofline decode --calibration} and
 * {@code report --calibration}. No GPU family is refused: a precision a family lacks is not asked for,
 * and a part that fails is listed with its error while the rest is still measured and written (the exit status is then
 * 1). Without a GPU it prints the registry figures it would check (for {@code --hw}) and writes
 * nothing.
 */
public final class ValidateCommand implements Command {
    static final Option<Path> OUT = Option.of(
            "--out", "DIR", "folder for validation.md and validation.json (must exist)", ".", Converters.path());
    static final Option<Boolean> QUICK = Option.flag(
            "--quick",
            "10 repetitions and one GEMV shape (4096x4096) instead of 8192x8192 and 28672x4096 (the decode step"
                    + " is unchanged)");
    static final Option<Hardware> HW = Option.of(
            "--hw",
            "NAME",
            "without a GPU: the registry entry whose figures would be checked",
            "gb10",
            Converters.hardware());

    static final Option<String> MODEL = Option.of(
            "--model",
            "NAME",
            "the model whose decode step is measured and calibrated (batch 1, context 1024; FP16, FP8 and NVFP4"
                    + " weights)",
            "llama-3-8b",
            (option, value) -> value);
    static final Option<Boolean> NO_DECODE =
            Option.flag("--no-decode", "skip the decode step and the calibration fitted to it");

    /** The decode step validate measures and fits its calibration to: one sequence at a 1k context, as served. */
    static final DecodeStepBenchmark.Sweep DECODE = new DecodeStepBenchmark.Sweep(
            List.of(WeightFormat.FP16, WeightFormat.FP8_E4M3, WeightFormat.NVFP4),
            List.of(KvCacheFormat.of(Precision.FP16)),
            List.of(1),
            List.of(1024),
            List.of(KernelLaunch.PROGRAMMATIC));

    /** RoPE base of the step: it changes no byte or FLOP, so Llama 3's serves every model. */
    static final double ROPE_THETA = 500_000;

    /** The GEMM size of each peak: large enough to run at the tensor cores' steady rate on every GPU we know. */
    static final long PEAK_N = 8192;

    @Override
    public String name() {
        return "validate";
    }

    @Override
    public String summary() {
        return "measure what the registry claims about this GPU and write it beside the claims (Markdown and JSON)";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(OUT, QUICK, MODEL, NO_DECODE, HW);
    }

    @Override
    public void run(Arguments args, PrintStream out, PrintStream err) throws IOException {
        Path dir = args.get(OUT).toAbsolutePath();
        if (!Files.isDirectory(dir)) {
            throw new UsageException("--out " + args.get(OUT) + ": no such directory");
        }
        if (!Files.isWritable(dir)) {
            throw new UsageException("--out " + args.get(OUT) + ": directory is not writable");
        }
        Model model = null;
        if (!args.has(NO_DECODE)) {
            try {
                model = Models.byName(args.get(MODEL));
                DecoderShape.of(model);
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                throw new UsageException("--model " + args.get(MODEL) + ": " + e.getMessage());
            }
        }
        if (!Cuda.isAvailable()) {
            Hardware hw = args.get(HW);
            out.println("Registry figures validate would check on " + hw.name() + ":");
            out.printf(
                    Locale.ROOT,
                    "  DRAM bandwidth %.0f GB/s (%s)%n",
                    hw.memoryBytesPerSecond() / 1e9,
                    hw.source(Hardware.Figure.MEMORY_BANDWIDTH));
            for (Precision p : precisions(hw.computeCapability().orElse(new ComputeCapability(9, 0)))) {
                hw.ceiling(p)
                        .ifPresent(c -> out.printf(
                                Locale.ROOT,
                                "  %s dense peak %.1f TFLOPS (%s)%n",
                                p.displayName(),
                                c.flopsPerSecond() / 1e12,
                                c.source()));
            }
            out.flush();
            throw new IllegalStateException(Cuda.unavailableReason().orElseThrow() + " - nothing measured or written");
        }
        Device device = Cuda.device(0);
        out.println(device);
        // the stages run from the vendor's code to ours, each guarded: a kernel of ours that fails (and may leave the
        // context unusable) comes last, and costs only its own part of the record
        MemoryFacts memory = Cuda.memoryFacts(device.ordinal());
        List<String> failures = new ArrayList<>();
        boolean quick = args.has(QUICK);
        DeviceCeilings ceilings = stage("ceilings", failures, err, () -> ceilings(device, quick, out));
        if (ceilings != null) {
            ceilings.failures().forEach((p, why) -> failures.add(p.displayName() + " peak: " + why));
        }
        List<Measurement> kernels = stage("GEMV kernels", failures, err, () -> gemv(device, quick, out));
        List<DecodeStepResult> decode = new ArrayList<>();
        Calibration calibration = null;
        if (model != null) {
            DecodeStepBenchmark.Results steps = decode(device, model, failures, err, out);
            if (steps != null) {
                decode.addAll(steps.results());
                Model m = model;
                calibration = stage("calibration", failures, err, () -> DecodeCommand.fitCalibration(
                                "roofline validate", m, DecoderShape.of(m), DECODE, steps)
                        .calibration());
            }
        }
        Validation v = new Validation(
                device.name(),
                device.computeCapability(),
                device.hardware().name(),
                LocalDate.now(),
                "CUDA runtime " + Cuda.runtimeVersion() + ", driver " + Cuda.driverVersion() + ", cuBLASLt "
                        + CublasLt.version(),
                Validation.checks(device.hardware(), Optional.ofNullable(ceilings), memory),
                kernels == null ? List.of() : kernels,
                decode,
                memory,
                failures,
                Validation.neverRunByUs(device.computeCapability(), FatbinContents.embedded()));
        Map<Path, String> files = new LinkedHashMap<>();
        files.put(dir.resolve("validation.md"), v.markdown());
        files.put(dir.resolve("validation.json"), v.json());
        if (calibration != null) {
            files.put(dir.resolve("calibration.json"), calibration.toJson());
        }
        MeasureCommand.writeAll(files);
        out.print(v.markdown());
        out.println("written: "
                + String.join(", ", files.keySet().stream().map(Path::toString).toList()));
        if (calibration != null) {
            out.println("calibration: " + calibration.provenance());
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException(failures.size() + " part(s) not measured (listed under \"Not measured\" in "
                    + dir.resolve("validation.md") + ")");
        }
    }

    /** One stage of the record: its result, or null with its failure recorded and printed as it happens. */
    private static <T> T stage(String name, List<String> failures, PrintStream err, Supplier<T> work) {
        try {
            return work.get();
        } catch (RuntimeException e) {
            String why = name + ": " + e.getClass().getSimpleName() + ": " + e.getMessage();
            failures.add(why);
            err.println("roofline validate: " + why);
            return null;
        }
    }

    /**
     * The decode step, one weight format at a time so a format that fails costs only its own rows; null when none
     * ran.
     */
    private static DecodeStepBenchmark.Results decode(
            Device device, Model model, List<String> failures, PrintStream err, PrintStream out) {
        out.println("decode steps: " + model.name() + ", batch 1, context 1024");
        List<DecodeStepResult> results = new ArrayList<>();
        DecodeStepBenchmark.Results first = null;
        for (WeightFormat f : DECODE.formats()) {
            DecodeStepBenchmark.Results r = stage(
                    "decode step " + f,
                    failures,
                    err,
                    () -> DecodeStepBenchmark.run(
                            device,
                            model,
                            new DecodeStepBenchmark.Sweep(
                                    List.of(f),
                                    DECODE.kvFormats(),
                                    DECODE.batches(),
                                    DECODE.contexts(),
                                    DECODE.launches()),
                            ROPE_THETA,
                            true));
            if (r != null) {
                first = first == null ? r : first;
                results.addAll(r.results());
            }
        }
        return first == null ? null : new DecodeStepBenchmark.Results(first.device(), first.ceilings(), results);
    }

    /**
     * The precisions whose dense peak is measured on a GPU of {@code cc}: FP16, BF16 and INT8 everywhere, FP8 from 8.9
     * (Ada, Hopper), the block-scaled NVFP4 and MXFP8 from 10.0 (Blackwell).
     */
    static List<Precision> precisions(ComputeCapability cc) {
        List<Precision> p = new ArrayList<>(List.of(Precision.FP16, Precision.BF16, Precision.INT8));
        if (cc.atLeast(8, 9)) {
            p.add(Precision.FP8_E4M3);
        }
        if (cc.atLeast(10, 0)) {
            p.add(Precision.NVFP4);
            p.add(Precision.MXFP8_E4M3);
        }
        return p;
    }

    private static DeviceCeilings ceilings(Device device, boolean quick, PrintStream out) {
        BenchmarkOptions o = quick ? BenchmarkOptions.defaults().withRepetitions(10) : BenchmarkOptions.defaults();
        try (CublasLt lt = CublasLt.create();
                Stream stream = Stream.create()) {
            out.println("ceilings: copies and " + PEAK_N + "^3 products");
            return DeviceCeilings.measure(
                    lt, device, stream, 1L << 30, PEAK_N, precisions(device.computeCapability()), o);
        }
    }

    private static List<Measurement> gemv(Device device, boolean quick, PrintStream out) {
        out.println("GEMV kernels at M = 1");
        GemvBenchmarkOptions g = GemvBenchmarkOptions.defaults()
                .withCublasBaseline(false)
                .withDecodeLayer(false)
                .withShapes(
                        quick
                                ? List.of(GemvBenchmarkOptions.Shape.parse("4096x4096"))
                                : List.of(
                                        GemvBenchmarkOptions.Shape.parse("8192x8192"),
                                        GemvBenchmarkOptions.Shape.parse("28672x4096")));
        if (quick) {
            g = g.withRepetitions(10);
        }
        GemvBenchmarkResults r = GemvBenchmark.run(
                device,
                g,
                m -> out.println("  " + m.label() + " " + m.operator().name()
                        + String.format(Locale.ROOT, " %.2f us", m.time().medianMicros())));
        if (!NativeFp4Gemv.hasInstruction(device.computeCapability())) {
            return r.kernels();
        }
        // the block-scaled FP4 mma (tcgen05.mma on 10.0, mma.sync on 12.x): timed, and checked against the mma.sync
        // kernel with the mma emulated from the PTX ISA's tables
        List<Measurement> all = new ArrayList<>(r.kernels());
        for (GemvBenchmarkOptions.Shape s : g.shapes()) {
            GemvBenchmark.NativeFp4Result n = GemvBenchmark.nativeFp4(device, r.ceilings(), g.timing(), s.n(), s.k());
            out.println("  " + n.measurement().label() + " "
                    + n.measurement().operator().name()
                    + String.format(
                            Locale.ROOT,
                            " %.2f us; max |native - emulated| / max |emulated| %.1e",
                            n.measurement().time().medianMicros(),
                            n.agreement()));
            if (!(n.agreement() <= NATIVE_FP4_AGREEMENT)) {
                throw new IllegalStateException(String.format(
                        Locale.ROOT,
                        "the native FP4 GEMV (block-scaled mma) at %dx%d differs from its emulation by %.3g of the"
                                + " largest output (more than %.0e): the instruction reads its operands or scales"
                                + " otherwise than roofline lays them out from the PTX ISA's tables",
                        s.n(),
                        s.k(),
                        n.agreement(),
                        NATIVE_FP4_AGREEMENT));
            }
            all.add(n.measurement());
        }
        return all;
    }

    /**
     * How far the native FP4 GEMV may lie from its emulation, relative to the largest output: both sum the same exact
     * products in FP32 (in another order) and round each output to FP16 once, so two FP16 steps and the summation's
     * reordering; a fragment or scale read otherwise gives errors of the order of the outputs.
     */
    static final double NATIVE_FP4_AGREEMENT = 1e-2;
}
