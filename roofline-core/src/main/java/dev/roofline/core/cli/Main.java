package dev.roofline.core.cli;

import dev.roofline.core.hardware.Ceiling;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.roofline.Roofline;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code java -jar roofline-core.jar [options]}: the roofline calculator. With no options it prices a GEMV
 * 4096×4096 on GB10 in FP16, FP8, INT8, INT4, NVFP4 and MXFP4.
 */
public final class Main {
    static final String USAGE = """
            usage: roofline [options]
              --hw NAME               hardware (default gb10); see --list-hardware
              --shape MxNxK           GEMM shape, M = tokens, N x K = weights (default 1x4096x4096)
              --precisions P,P,...    weight precisions to compare (default fp16,fp8,int8,int4,nvfp4,mxfp4)
              --activations P|same    activation precision (default same: each row uses its weight precision)
              --output P              output precision (default fp16)
              --baseline P            precision the speedup column compares with (default fp16)
              --efficiency BW,COMPUTE fractions of peak bandwidth and compute reached, each in (0,1] (default 1,1)
              --list-hardware         print the hardware registry with sources
              --list-precisions       print the precision catalog
              --help                  print this text
            roofline model|recommend|plot <preset|config.json> --help   transformer models (see that help)
            """;

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the CLI; returns the process exit status (0 ok, 2 bad arguments). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length > 0 && SUBCOMMANDS.contains(args[0])) {
            return runSubcommand(args, out, err);
        }
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("roofline: " + e.getMessage());
            err.print(USAGE);
            return 2;
        }
        switch (o.action()) {
            case HELP -> out.print(USAGE);
            case LIST_HARDWARE -> out.print(listHardware());
            case LIST_PRECISIONS -> out.print(listPrecisions());
            case PREDICT -> {
                try {
                    out.print(predictTable(o));
                } catch (IllegalArgumentException | IllegalStateException e) {
                    err.println("roofline: " + e.getMessage());
                    return 2;
                }
            }
        }
        return 0;
    }

    private static final List<String> SUBCOMMANDS = List.of("model", "recommend", "plot");

    private static int runSubcommand(String[] args, PrintStream out, PrintStream err) {
        if (args.length > 1 && (args[1].equals("--help") || args[1].equals("-h"))) {
            out.print(ModelCommand.USAGE);
            return 0;
        }
        try {
            out.print(ModelCommand.run(args[0], ModelOptions.parse(args)));
            return 0;
        } catch (IllegalArgumentException | IllegalStateException | java.io.UncheckedIOException e) {
            err.println("roofline: " + e.getMessage());
            err.print(ModelCommand.USAGE);
            return 2;
        }
    }

    static String predictTable(Options o) {
        Roofline roofline = Roofline.on(o.hardware()).withEfficiency(o.bandwidthEfficiency(), o.computeEfficiency());
        Gemm shape = new Gemm("gemm", 1, o.m(), o.n(), o.k(), Precision.FP16, Precision.FP16, o.output());
        Prediction baseline = roofline.predict(operands(shape, o.baseline(), o));
        StringBuilder sb = new StringBuilder();
        Hardware hw = o.hardware();
        sb.append(String.format(Locale.ROOT, "%s M=%d N=%d K=%d on %s: %.0f GB/s%s; output %s%n",
                o.m() == 1 ? "GEMV" : "GEMM", o.m(), o.n(), o.k(), hw.name(),
                hw.memoryBytesPerSecond() / 1e9 * o.bandwidthEfficiency(),
                o.bandwidthEfficiency() < 1 || o.computeEfficiency() < 1
                        ? String.format(Locale.ROOT, " (efficiency %.2f bandwidth, %.2f compute)", o.bandwidthEfficiency(), o.computeEfficiency())
                        : "", o.output().displayName()));
        TextTable t = new TextTable("precision", "bytes", "FLOPs", "FLOP/B", "bound", "time us", "TFLOPS", "vs " + o.baseline().shortName().toUpperCase(Locale.ROOT), "compute path");
        List<String> notes = new ArrayList<>();
        for (Precision p : o.precisions()) {
            Prediction pr = roofline.predict(operands(shape, p, o));
            t.add(p.displayName(), Long.toString(pr.bytes()), Long.toString(pr.flops()),
                    fmt("%.2f", pr.flopsPerByte()), pr.bound().name().toLowerCase(Locale.ROOT),
                    fmt("%.2f", pr.timeMicros()), fmt("%.2f", pr.attainableFlopsPerSecond() / 1e12),
                    fmt("%.2fx", pr.speedupOver(baseline)), pr.computePath().executedAs().displayName()
                            + (pr.computePath().nativePath() ? "" : " (fallback)"));
            if (!pr.computePath().nativePath()) {
                notes.add(p.displayName() + ": " + pr.computePath().method());
            }
        }
        sb.append(t.render());
        // --hw names datasheet hardware only, which has no kernel latency
        sb.append("time = max(bytes / bandwidth, FLOPs / peak); bytes include block scales; dense peaks.\n");
        for (String n : notes) {
            sb.append("note: ").append(n).append('\n');
        }
        sb.append("bandwidth: ").append(hw.source(Hardware.Figure.MEMORY_BANDWIDTH)).append('\n');
        return sb.toString();
    }

    private static Gemm operands(Gemm shape, Precision weights, Options o) {
        return shape.withWeights(weights).withActivations(o.activations() == null ? weights : o.activations());
    }

    static String listHardware() {
        StringBuilder sb = new StringBuilder();
        for (Hardware h : Hardware.registry()) {
            sb.append(String.format(Locale.ROOT, "%s%s: %.0f GB/s, %.0f GB, %d SMs, L2 %.1f MiB, CC %s, %.0f W%n",
                    h.name(), h.aliases().isEmpty() ? "" : " (" + String.join(", ", h.aliases()) + ")",
                    h.memoryBytesPerSecond() / 1e9, h.memoryBytes() / 1e9, h.smCount(), h.l2Bytes() / (double) (1 << 20),
                    h.computeCapability().map(Object::toString).orElse("?"), h.powerWatts()));
            for (Hardware.Figure f : Hardware.Figure.values()) {
                if (f != Hardware.Figure.KERNEL_LATENCY) { // measured only, never in a datasheet
                    sb.append("    ").append(f.name().toLowerCase(Locale.ROOT)).append(": ").append(h.source(f)).append('\n');
                }
            }
            for (Ceiling c : h.dense().values()) {
                sb.append(String.format(Locale.ROOT, "    %-11s %9.1f TFLOPS dense (%s)  %s%n", c.precision().displayName(),
                        c.teraFlopsPerSecond(), c.unit() == Ceiling.Unit.TENSOR_CORE ? "tensor" : "CUDA cores", c.source()));
            }
        }
        return sb.toString();
    }

    static String listPrecisions() {
        TextTable t = new TextTable("precision", "names", "bits", "E", "M", "bias", "max finite", "block", "scale", "bits/elem");
        for (Precision p : Precision.values()) {
            t.add(p.displayName(), String.join(",", p.aliases()), Integer.toString(p.elementBits()),
                    Integer.toString(p.exponentBits()), Integer.toString(p.mantissaBits()),
                    p.exponentBias().isPresent() ? Integer.toString(p.exponentBias().getAsInt()) : "-",
                    fmt("%.6g", p.maxFinite()),
                    p.blockScaling().map(b -> Integer.toString(b.blockSize())).orElse("-"),
                    p.blockScaling().map(b -> b.scale().name() + (b.tensorScale() == null ? "" : "+" + b.tensorScale().name() + " tensor")).orElse("-"),
                    fmt("%.4g", p.effectiveBitsPerElement()));
        }
        return t.render();
    }

    private static String fmt(String f, double v) {
        return String.format(Locale.ROOT, f, v);
    }
}
