package dev.roofline.core.cli;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.ConfigJson;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.report.ChartPoint;
import dev.roofline.core.transformer.Phase;
import dev.roofline.core.transformer.Workload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Parsed arguments of the {@code model}, {@code recommend} and {@code plot} subcommands. */
record ModelOptions(Model model, Hardware hardware, Workload workload, String format, List<Precision> allowed,
                    Path out, List<Precision> ceilings, List<ChartPoint> measured) {

    static ModelOptions parse(String[] args) {
        if (args.length < 2 || args[1].startsWith("--")) {
            throw new IllegalArgumentException(args[0] + " needs a model: a preset (" + Models.knownNames() + ") or a config.json path");
        }
        Model model = model(args[1]);
        Hardware hw = Hardware.GB10;
        Phase phase = Phase.DECODE;
        long batch = 1;
        long context = 4096;
        Precision w = Precision.FP16, a = Precision.FP16, kv = Precision.FP16;
        boolean flash = true;
        String format = "text";
        List<Precision> allowed = null;
        Path out = null;
        List<Precision> ceilings = null;
        List<ChartPoint> measured = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            String o = args[i];
            switch (o) {
                case "--hw", "--hardware" -> hw = Hardware.byName(value(args, ++i, o));
                case "--batch" -> batch = positive(o, value(args, ++i, o));
                case "--context" -> context = positive(o, value(args, ++i, o));
                case "--phase" -> {
                    String v = value(args, ++i, o);
                    phase = switch (v.toLowerCase(Locale.ROOT)) {
                        case "decode" -> Phase.DECODE;
                        case "prefill" -> Phase.PREFILL;
                        default -> throw new IllegalArgumentException("--phase must be decode or prefill, got '" + v + "'");
                    };
                }
                case "--weights" -> w = Precision.parse(value(args, ++i, o));
                case "--activations" -> a = Precision.parse(value(args, ++i, o));
                case "--kv" -> kv = Precision.parse(value(args, ++i, o));
                case "--no-flash" -> flash = false;
                case "--format" -> {
                    format = value(args, ++i, o).toLowerCase(Locale.ROOT);
                    if (!List.of("text", "markdown", "csv").contains(format)) {
                        throw new IllegalArgumentException("--format must be text, markdown or csv, got '" + format + "'");
                    }
                }
                case "--allow" -> allowed = precisions(value(args, ++i, o));
                case "--out" -> out = Path.of(value(args, ++i, o));
                case "--precisions" -> ceilings = precisions(value(args, ++i, o));
                case "--measured" -> measured.add(measured(value(args, ++i, o)));
                default -> throw new IllegalArgumentException("unknown option '" + o + "' for " + args[0]);
            }
        }
        Workload wl = new Workload(phase, batch, context, w, a, kv, flash);
        return new ModelOptions(model, hw, wl, format, allowed, out, ceilings, List.copyOf(measured));
    }

    private static Model model(String v) {
        Path p = Path.of(v);
        if (v.endsWith(".json") || Files.isRegularFile(p)) {
            if (!Files.isRegularFile(p)) {
                throw new IllegalArgumentException("model config '" + v + "' does not exist");
            }
            return ConfigJson.read(p);
        }
        return Models.byName(v);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static long positive(String option, String v) {
        try {
            long n = Long.parseLong(v.strip());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " must be a positive integer, got '" + v + "'");
    }

    private static List<Precision> precisions(String v) {
        List<Precision> ps = new ArrayList<>();
        for (String s : v.split(",")) {
            ps.add(Precision.parse(s));
        }
        return List.copyOf(ps);
    }

    /** LABEL:FLOP_PER_BYTE:TFLOPS, e.g. "gemv:0.98:0.25". */
    private static ChartPoint measured(String v) {
        String[] parts = v.split(":");
        if (parts.length != 3) {
            throw new IllegalArgumentException("--measured expects LABEL:FLOP_PER_BYTE:TFLOPS, got '" + v + "'");
        }
        try {
            return new ChartPoint(parts[0], Double.parseDouble(parts[1]), Double.parseDouble(parts[2]) * 1e12, true);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--measured numbers must be decimal, got '" + v + "'");
        }
    }
}
