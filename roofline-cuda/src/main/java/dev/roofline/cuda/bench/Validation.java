package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Ceiling;
import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.internal.Json;
import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.MemoryFacts;
import dev.roofline.cuda.kernels.FatbinContents;
import dev.roofline.cuda.kernels.NativeFp4Gemv;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What the registry claims about a GPU beside what was measured on it ({@code roofline validate}): each figure with its
 * registry value and source, its measurement and how it was taken, and the ratio measured ÷ registry; then roofline's
 * GEMV kernels against their datasheet roofline, how the GPU holds memory, what could not be measured, and what roofline
 * has built for this GPU but never run on one.
 *
 * @param gpu            the device as the driver names it
 * @param capability     its compute capability
 * @param registry       the registry entry it was compared with (a known GPU's datasheet, else the runtime's figures)
 * @param date           the day of the run
 * @param software       CUDA runtime, driver and cuBLASLt versions, as one line
 * @param checks         registry figures beside their measurements
 * @param kernels        roofline's GEMV kernels, each beside its datasheet roofline time
 * @param decode         whole decode steps, each beside its datasheet prediction, with joules per token where a
 *                       meter was installed; empty when none was run
 * @param memory         how the GPU holds memory
 * @param failures       what could not be measured, and why
 * @param neverRunByUs   code paths built for this GPU that roofline's developers have never run on one
 */
public record Validation(
        String gpu,
        ComputeCapability capability,
        String registry,
        LocalDate date,
        String software,
        List<Check> checks,
        List<Measurement> kernels,
        List<DecodeStepResult> decode,
        MemoryFacts memory,
        List<String> failures,
        List<String> neverRunByUs) {

    /** The GPU family every roofline measurement so far was taken on (H100, H200). */
    static final ComputeCapability RUN_BY_US = new ComputeCapability(9, 0);

    /**
     * One registry figure beside its measurement.
     *
     * @param figure   what is compared, e.g. "DRAM bandwidth" or "FP16 dense peak"
     * @param unit     the unit both values are printed in, e.g. "GB/s"
     * @param scale    the unit's size in base units (1e9 for GB/s)
     * @param registry the registry's value in base units, empty where the registry has none
     * @param source   the registry value's source, or why there is none
     * @param measured the measured value in base units
     * @param how      how it was measured
     */
    public record Check(
            String figure,
            String unit,
            double scale,
            OptionalDouble registry,
            String source,
            double measured,
            String how) {
        public Check {
            Objects.requireNonNull(figure, "figure");
            Objects.requireNonNull(unit, "unit");
            Objects.requireNonNull(registry, "registry");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(how, "how");
            if (!(scale > 0) || !Double.isFinite(measured)) {
                throw new IllegalArgumentException(
                        figure + ": scale must be positive and the measurement finite, got " + scale + ", " + measured);
            }
        }

        /** Measured ÷ registry; empty where the registry has no value (or a zero one). */
        public OptionalDouble ratio() {
            return registry.isPresent() && registry.getAsDouble() > 0
                    ? OptionalDouble.of(measured / registry.getAsDouble())
                    : OptionalDouble.empty();
        }
    }

    public Validation {
        Objects.requireNonNull(gpu, "gpu");
        Objects.requireNonNull(capability, "capability");
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(software, "software");
        Objects.requireNonNull(memory, "memory");
        checks = List.copyOf(checks);
        kernels = List.copyOf(kernels);
        decode = List.copyOf(decode);
        failures = List.copyOf(failures);
        neverRunByUs = List.copyOf(neverRunByUs);
    }

    /**
     * The checks of {@code sheet} against {@code ceilings}: DRAM bandwidth against the copy slope, kernel latency
     * against the copy line's intercept, each measured precision's peak against the registry's dense ceiling (none of
     * these where the ceilings could not be measured); and memory capacity against the total CUDA reports.
     */
    public static List<Check> checks(Hardware sheet, Optional<DeviceCeilings> ceilings, MemoryFacts memory) {
        List<Check> out = new ArrayList<>();
        ceilings.ifPresent(measured -> out.addAll(ceilingChecks(sheet, measured)));
        out.add(new Check(
                "memory capacity",
                "GiB",
                1L << 30,
                OptionalDouble.of(sheet.memoryBytes()),
                String.valueOf(sheet.source(Hardware.Figure.MEMORY_CAPACITY)),
                memory.totalBytes(),
                "total memory cudaMemGetInfo reports"));
        return out;
    }

    private static List<Check> ceilingChecks(Hardware sheet, DeviceCeilings measured) {
        List<Check> out = new ArrayList<>();
        out.add(new Check(
                "DRAM bandwidth",
                "GB/s",
                1e9,
                OptionalDouble.of(sheet.memoryBytesPerSecond()),
                String.valueOf(sheet.source(Hardware.Figure.MEMORY_BANDWIDTH)),
                measured.copyBytesPerSecond(),
                measured.copyHow()));
        out.add(new Check(
                "kernel latency",
                "us",
                1e-6,
                sheet.kernelLatencySeconds() > 0
                        ? OptionalDouble.of(sheet.kernelLatencySeconds())
                        : OptionalDouble.empty(),
                sheet.kernelLatencySeconds() > 0
                        ? String.valueOf(sheet.source(Hardware.Figure.KERNEL_LATENCY))
                        : "the registry has no kernel latency for " + sheet.name(),
                measured.kernelLatencySeconds(),
                measured.copyHow()));
        for (Map.Entry<Precision, Double> e : measured.peakFlopsPerSecond().entrySet()) {
            Ceiling c = sheet.ceiling(e.getKey()).orElse(null);
            out.add(new Check(
                    e.getKey().displayName() + " dense peak",
                    "TFLOPS",
                    1e12,
                    c == null ? OptionalDouble.empty() : OptionalDouble.of(c.flopsPerSecond()),
                    c == null
                            ? "the registry has no " + e.getKey().displayName() + " ceiling for " + sheet.name()
                            : String.valueOf(c.source()),
                    e.getValue(),
                    measured.peakHow()));
        }
        return out;
    }

    /**
     * What roofline builds for a GPU of {@code cc} but its developers have never run on one: everything off the Hopper
     * GPUs they measure on, with whether {@code kernels} (the fatbin's table of contents) holds machine code for it or
     * leaves the driver to compile its PTX; from compute capability 10.0, the block-scaled NVFP4/MXFP8 cuBLASLt products
     * besides.
     */
    public static List<String> neverRunByUs(ComputeCapability cc, FatbinContents kernels) {
        Objects.requireNonNull(cc, "cc");
        Objects.requireNonNull(kernels, "kernels");
        if (cc.equals(RUN_BY_US)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        out.add("every measurement on compute capability " + cc
                + ": roofline's developers have run its kernels and products only on H100 and H200 (" + RUN_BY_US
                + ")");
        int arch = cc.major() * 10 + cc.minor();
        out.add(
                kernels.hasCubin(arch)
                        ? "roofline's GEMV, attention and decode kernels: machine code for sm_" + arch
                                + " is in the fatbin (built for this GPU, never run on one by us)"
                        : kernels.hasPtxFor(arch)
                                ? "roofline's GEMV, attention and decode kernels: no machine code for sm_" + arch
                                        + " in the fatbin (" + kernels.entries()
                                        + "); the driver compiles its PTX for this GPU"
                                : "roofline's GEMV, attention and decode kernels: nothing in the fatbin ("
                                        + kernels.entries() + ") runs on sm_" + arch
                                        + "; they will not load on this GPU");
        if (cc.atLeast(10, 0)) {
            out.add("block-scaled cuBLASLt products (NVFP4 with VEC16_UE4M3 scales, MXFP8 with VEC32_UE8M0), their"
                    + " tiled 128x4 scale layout and the tensor scale as alpha: built for this GPU, never run on one by"
                    + " us");
        }
        NativeFp4Gemv.Instruction.on(cc)
                .ifPresent(i -> out.add("the native FP4 GEMV (NVFP4 weights x NVFP4 activations on " + i.ptx()
                        + ", with its activation quantizer): built for this GPU, never run on one by us; validate"
                        + " checks it against the mma.sync kernel with the mma emulated from the PTX ISA's tables"));
        return out;
    }

    /** The record as Markdown: a table of checks, a table of kernels, the memory facts, failures and unrun paths. */
    public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# roofline validate: ").append(gpu).append("\n\n");
        sb.append("- compute capability ")
                .append(capability)
                .append("; registry entry: ")
                .append(registry)
                .append('\n');
        sb.append("- ").append(date).append("; ").append(software).append("\n\n");
        sb.append("## Registry beside measurement\n\n");
        sb.append("| figure | registry | measured | measured / registry | registry source | how measured |\n");
        sb.append("|---|---:|---:|---:|---|---|\n");
        for (Check c : checks) {
            sb.append("| ")
                    .append(cell(c.figure()))
                    .append(" | ")
                    .append(c.registry().isPresent() ? value(c.registry().getAsDouble(), c) : "–")
                    .append(" | ")
                    .append(value(c.measured(), c))
                    .append(" | ")
                    .append(
                            c.ratio().isPresent()
                                    ? String.format(
                                            Locale.ROOT, "%.3f", c.ratio().getAsDouble())
                                    : "–")
                    .append(" | ")
                    .append(cell(c.source()))
                    .append(" | ")
                    .append(cell(c.how()))
                    .append(" |\n");
        }
        sb.append("\n## roofline's GEMV kernels\n\n");
        if (kernels.isEmpty()) {
            sb.append("None measured.\n");
        } else {
            sb.append("| kernel | shape NxK | M | median us | datasheet roofline us | % of datasheet roofline"
                    + " | weight GB/s |\n");
            sb.append("|---|---|---:|---:|---:|---:|---:|\n");
            for (Measurement m : kernels) {
                sb.append("| ")
                        .append(cell(m.label()))
                        .append(" | ")
                        .append(cell(m.operator().name()))
                        .append(" | ")
                        .append(m.operator() instanceof dev.roofline.core.roofline.Gemm g ? g.m() : 1)
                        .append(" | ")
                        .append(String.format(Locale.ROOT, "%.2f", m.time().medianMicros()))
                        .append(" | ")
                        .append(
                                datasheetMicros(m).isPresent()
                                        ? String.format(
                                                Locale.ROOT,
                                                "%.2f",
                                                datasheetMicros(m).getAsDouble())
                                        : "–")
                        .append(" | ")
                        .append(
                                percentOfDatasheet(m).isPresent()
                                        ? String.format(
                                                Locale.ROOT,
                                                "%.1f%%",
                                                percentOfDatasheet(m).getAsDouble())
                                        : "–")
                        .append(" | ")
                        .append(
                                m.streamedGigabytesPerSecond().isPresent()
                                        ? String.format(
                                                Locale.ROOT,
                                                "%.0f",
                                                m.streamedGigabytesPerSecond().getAsDouble())
                                        : "–")
                        .append(" |\n");
            }
        }
        sb.append("\n## Decode steps\n\n");
        if (decode.isEmpty()) {
            sb.append("None run.\n");
        } else {
            sb.append("| model | weights | KV | batch | context | measured us | datasheet us | % of datasheet"
                    + " | tokens/s | weight+KV GB/s | J/token |\n");
            sb.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (DecodeStepResult r : decode) {
                DecodeStepBenchmark.Config c = r.config();
                sb.append("| ")
                        .append(cell(r.model()))
                        .append(" | ")
                        .append(c.format())
                        .append(" | ")
                        .append(c.kv())
                        .append(" | ")
                        .append(c.batch())
                        .append(" | ")
                        .append(c.context())
                        .append(" | ");
                if (!r.measured()) {
                    sb.append(cell(r.notRun())).append(" | – | – | – | – | – |\n");
                    continue;
                }
                double sheet = DecodeStepResult.stepPrediction(r.datasheet());
                sb.append(String.format(
                                Locale.ROOT,
                                "%.1f | %.1f | %.1f%% | %.1f | %.0f | ",
                                r.micros(),
                                sheet * 1e6,
                                100 * sheet / r.seconds(),
                                r.tokensPerSecond(),
                                r.bytesPerSecond() / 1e9))
                        .append(r.energy()
                                .map(e -> String.format(Locale.ROOT, "%.3f", e.joulesPerOperation() / c.batch()))
                                .orElse("–"))
                        .append(" |\n");
            }
        }
        sb.append("\n## Memory\n\n");
        sb.append("- integrated (shares the host's memory): ")
                .append(memory.integrated() ? "yes" : "no")
                .append('\n');
        sb.append("- kernels may read pageable host memory: ")
                .append(memory.pageableMemoryAccess() ? "yes" : "no")
                .append('\n');
        sb.append(String.format(
                Locale.ROOT,
                "- free %.2f GiB of %.2f GiB total as CUDA sees them (cudaMemGetInfo)%n",
                memory.freeBytes() / (double) (1L << 30),
                memory.totalBytes() / (double) (1L << 30)));
        sb.append("\n## Not measured\n\n");
        sb.append(failures.isEmpty() ? "Nothing.\n" : bullets(failures));
        sb.append("\n## Built for this GPU, never run on one by us\n\n");
        sb.append(
                neverRunByUs.isEmpty()
                        ? "Nothing: roofline's developers have run these kernels and products on this GPU family.\n"
                        : bullets(neverRunByUs));
        return sb.toString();
    }

    /** The record as JSON, values in base units (bytes, seconds, FLOP/s). */
    public String json() {
        StringBuilder sb = new StringBuilder("{\n");
        sb.append("  \"gpu\": ").append(Json.quote(gpu)).append(",\n");
        sb.append("  \"compute_capability\": ")
                .append(Json.quote(capability.toString()))
                .append(",\n");
        sb.append("  \"registry\": ").append(Json.quote(registry)).append(",\n");
        sb.append("  \"date\": ").append(Json.quote(date.toString())).append(",\n");
        sb.append("  \"software\": ").append(Json.quote(software)).append(",\n");
        sb.append("  \"checks\": [");
        for (int i = 0; i < checks.size(); i++) {
            Check c = checks.get(i);
            sb.append(i == 0 ? "\n" : ",\n")
                    .append("    {\"figure\": ")
                    .append(Json.quote(c.figure()))
                    .append(", \"unit\": ")
                    .append(Json.quote(c.unit()))
                    .append(", \"unit_scale\": ")
                    .append(number(c.scale()))
                    .append(", \"registry\": ")
                    .append(c.registry().isPresent() ? number(c.registry().getAsDouble()) : "null")
                    .append(", \"measured\": ")
                    .append(number(c.measured()))
                    .append(", \"ratio\": ")
                    .append(c.ratio().isPresent() ? number(c.ratio().getAsDouble()) : "null")
                    .append(", \"source\": ")
                    .append(Json.quote(c.source()))
                    .append(", \"how\": ")
                    .append(Json.quote(c.how()))
                    .append('}');
        }
        sb.append(checks.isEmpty() ? "],\n" : "\n  ],\n");
        sb.append("  \"kernels\": [");
        for (int i = 0; i < kernels.size(); i++) {
            Measurement m = kernels.get(i);
            sb.append(i == 0 ? "\n" : ",\n")
                    .append("    {\"kernel\": ")
                    .append(Json.quote(m.label()))
                    .append(", \"operator\": ")
                    .append(Json.quote(m.operator().name()))
                    .append(", \"median_seconds\": ")
                    .append(number(m.time().medianSeconds()))
                    .append(", \"datasheet_roofline_seconds\": ")
                    .append(
                            datasheetMicros(m).isPresent()
                                    ? number(datasheetMicros(m).getAsDouble() * 1e-6)
                                    : "null")
                    .append('}');
        }
        sb.append(kernels.isEmpty() ? "],\n" : "\n  ],\n");
        sb.append("  \"decode\": [");
        for (int i = 0; i < decode.size(); i++) {
            DecodeStepResult r = decode.get(i);
            DecodeStepBenchmark.Config c = r.config();
            sb.append(i == 0 ? "\n" : ",\n")
                    .append("    {\"model\": ")
                    .append(Json.quote(r.model()))
                    .append(", \"weights\": ")
                    .append(Json.quote(c.format().name()))
                    .append(", \"kv\": ")
                    .append(Json.quote(c.kv().toString()))
                    .append(", \"batch\": ")
                    .append(c.batch())
                    .append(", \"context\": ")
                    .append(c.context())
                    .append(", \"median_seconds\": ")
                    .append(r.measured() ? number(r.seconds()) : "null")
                    .append(", \"datasheet_seconds\": ")
                    .append(r.measured() ? number(DecodeStepResult.stepPrediction(r.datasheet())) : "null")
                    .append(", \"joules_per_token\": ")
                    .append(r.energy()
                            .map(e -> number(e.joulesPerOperation() / c.batch()))
                            .orElse("null"))
                    .append(", \"not_run\": ")
                    .append(r.measured() ? "null" : Json.quote(r.notRun()))
                    .append('}');
        }
        sb.append(decode.isEmpty() ? "],\n" : "\n  ],\n");
        sb.append("  \"memory\": {\"integrated\": ")
                .append(memory.integrated())
                .append(", \"pageable_memory_access\": ")
                .append(memory.pageableMemoryAccess())
                .append(", \"free_bytes\": ")
                .append(memory.freeBytes())
                .append(", \"total_bytes\": ")
                .append(memory.totalBytes())
                .append("},\n");
        sb.append("  \"not_measured\": ").append(strings(failures)).append(",\n");
        sb.append("  \"never_run_by_us\": ").append(strings(neverRunByUs)).append('\n');
        return sb.append("}\n").toString();
    }

    private static OptionalDouble datasheetMicros(Measurement m) {
        return m.datasheet().map(p -> OptionalDouble.of(p.timeMicros())).orElse(OptionalDouble.empty());
    }

    /** The datasheet roofline time as a share of the measured time: 100 % is a kernel at its roofline. */
    static OptionalDouble percentOfDatasheet(Measurement m) {
        OptionalDouble d = datasheetMicros(m);
        return d.isPresent()
                ? OptionalDouble.of(100 * d.getAsDouble() / m.time().medianMicros())
                : OptionalDouble.empty();
    }

    private static String value(double v, Check c) {
        double x = v / c.scale();
        return String.format(Locale.ROOT, x >= 100 ? "%.0f %s" : x >= 10 ? "%.1f %s" : "%.2f %s", x, c.unit());
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }

    private static String bullets(List<String> lines) {
        StringBuilder sb = new StringBuilder();
        lines.forEach(l -> sb.append("- ").append(l).append('\n'));
        return sb.toString();
    }

    private static String number(double v) {
        return Double.isFinite(v) ? String.valueOf(v) : "null";
    }

    private static String strings(List<String> lines) {
        return lines.stream()
                .map(Json::quote)
                .reduce((a, b) -> a + ", " + b)
                .map(s -> "[" + s + "]")
                .orElse("[]");
    }
}
