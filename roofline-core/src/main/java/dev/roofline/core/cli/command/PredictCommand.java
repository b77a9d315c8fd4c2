package dev.roofline.core.cli.command;

import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Converters;
import dev.roofline.core.cli.Option;
import dev.roofline.core.cli.UsageException;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.report.PrecisionComparison;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Roofline;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * {@code roofline predict}: the roofline calculator. With no options it prices a GEMV 4096×4096 on GB10 in FP16,
 * FP8, INT8, INT4, NVFP4 and MXFP4.
 */
public final class PredictCommand implements Command {
    static final Option<Hardware> HW =
            Option.of("--hw", "NAME", "hardware; see roofline hardware", "gb10", Converters.hardware());
    static final Option<Gemm> SHAPE = Option.of(
            "--shape", "MxNxK", "GEMM shape, M = tokens, N x K = weights", "1x4096x4096", PredictCommand::shape);
    static final Option<List<Precision>> PRECISIONS = Option.of(
            "--precisions",
            "P,P,...",
            "weight precisions to compare",
            "fp16,fp8,int8,int4,nvfp4,mxfp4",
            Converters.precisions());
    static final Option<Precision> ACTIVATIONS = Option.of(
            "--activations",
            "P|same",
            "activation precision; same: each row uses its weight precision",
            "same",
            (o, v) -> v.equalsIgnoreCase("same") ? null : Precision.parse(v));
    static final Option<Precision> OUTPUT =
            Option.of("--output", "P", "output precision", "fp16", Converters.precision());
    static final Option<Precision> BASELINE =
            Option.of("--baseline", "P", "precision the speedup column compares with", "fp16", Converters.precision());
    static final Option<Efficiency> EFFICIENCY = Option.of(
            "--efficiency",
            "BW,COMPUTE",
            "fractions of peak bandwidth and compute reached, each in (0,1] and leaving >= 1 GB/s and 1 GFLOP/s",
            "1,1",
            PredictCommand::efficiency);

    @Override
    public String name() {
        return "predict";
    }

    @Override
    public String summary() {
        return "the roofline calculator: one GEMM shape in several precisions (default a 4096x4096 GEMV on GB10)";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(HW, SHAPE, PRECISIONS, ACTIVATIONS, OUTPUT, BASELINE, EFFICIENCY);
    }

    @Override
    public void run(Arguments args, PrintStream out, PrintStream err) {
        Efficiency efficiency = args.get(EFFICIENCY);
        Roofline roofline;
        try {
            roofline = Roofline.on(args.get(HW)).withEfficiency(efficiency.bandwidth(), efficiency.compute());
        } catch (IllegalArgumentException e) { // a fraction so small that what it leaves is not physical
            throw new UsageException(EFFICIENCY.name() + ": " + e.getMessage());
        }
        PrecisionComparison table = PrecisionComparison.of(
                        roofline, args.get(SHAPE).withOutput(args.get(OUTPUT)))
                .withPrecisions(args.get(PRECISIONS))
                .withBaseline(args.get(BASELINE));
        if (args.find(ACTIVATIONS).isPresent()) {
            table = table.withActivations(args.get(ACTIVATIONS));
        }
        out.print(table.text());
    }

    /** MxNxK, each > 0, and small enough that FLOPs and bytes fit a long. */
    private static Gemm shape(String option, String v) {
        String[] parts = v.toLowerCase(Locale.ROOT).split("x");
        if (parts.length != 3) {
            throw new IllegalArgumentException(option + " expects MxNxK, e.g. 1x4096x4096, got '" + v + "'");
        }
        long[] dims = new long[3];
        String[] names = {"M", "N", "K"};
        for (int d = 0; d < 3; d++) {
            try {
                dims[d] = Long.parseLong(parts[d].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        option + " " + names[d] + " must be a positive integer, got '" + parts[d] + "'");
            }
            if (dims[d] <= 0) {
                throw new IllegalArgumentException(option + " " + names[d] + " must be > 0, got " + dims[d]);
            }
        }
        return Gemm.of(dims[0], dims[1], dims[2]);
    }

    /** Fractions of peak bandwidth and peak compute, each in (0, 1]. */
    private record Efficiency(double bandwidth, double compute) {}

    private static Efficiency efficiency(String option, String v) {
        String[] parts = v.split(",");
        if (parts.length != 2) {
            throw new IllegalArgumentException(option + " expects BW,COMPUTE (two fractions), got '" + v + "'");
        }
        return new Efficiency(fraction(option + " bandwidth", parts[0]), fraction(option + " compute", parts[1]));
    }

    private static double fraction(String what, String v) {
        double d;
        try {
            d = Double.parseDouble(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be a number in (0, 1], got '" + v + "'");
        }
        if (!(d > 0 && d <= 1)) {
            throw new IllegalArgumentException(what + " must be in (0, 1], got " + v);
        }
        return d;
    }
}
