package dev.roofline.quant.cli;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Workload;
import dev.roofline.quant.checkpoint.CheckpointQuantizer;
import dev.roofline.quant.checkpoint.LinearSelector;
import dev.roofline.quant.checkpoint.QuantTarget;
import dev.roofline.quant.recommend.LayerChoice;
import dev.roofline.quant.recommend.PrecisionAdvisor;
import dev.roofline.quant.safetensors.ShardedCheckpoint;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code roofline-quant quantize <model-dir> <out-dir> [--format nvfp4|nvfp4-ct|fp8|fp8-channel] [--exclude s,...] [--four-over-six]}
 * and {@code roofline-quant advise <model-dir> [--hw gb10] [--batch 1] [--phase decode|prefill] [--context 4096]
 * [--min-sqnr 20] [--formats nvfp4,fp8,...]}.
 */
public final class Main {
    static final String USAGE = """
            usage: roofline-quant quantize <model-dir> <out-dir> [--format nvfp4|nvfp4-ct|fp8|fp8-channel]
                                          [--exclude NAME,...] [--four-over-six]
                   roofline-quant advise <model-dir> [--hw NAME] [--phase decode|prefill] [--batch B] [--context S]
                                         [--min-sqnr DB] [--formats P,...]
            """;

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            if (args.length == 0) {
                throw new IllegalArgumentException("a command is needed: quantize or advise");
            }
            return switch (args[0]) {
                case "quantize" -> quantize(args, out);
                case "advise" -> advise(args, out);
                case "--help", "-h" -> {
                    out.print(USAGE);
                    yield 0;
                }
                default -> throw new IllegalArgumentException("unknown command '" + args[0] + "'");
            };
        } catch (IllegalArgumentException e) {
            err.println("roofline-quant: " + e.getMessage());
            err.print(USAGE);
            return 2;
        } catch (IOException | RuntimeException e) {
            err.println("roofline-quant: " + e.getMessage());
            return 1;
        }
    }

    private static int quantize(String[] args, PrintStream out) throws IOException {
        if (args.length < 3) {
            throw new IllegalArgumentException("quantize needs <model-dir> <out-dir>");
        }
        QuantTarget target = QuantTarget.NVFP4_MODELOPT;
        List<String> exclude = new ArrayList<>();
        boolean fourOverSix = false;
        for (int i = 3; i < args.length; i++) {
            switch (args[i]) {
                case "--format" -> target = target(value(args, ++i, "--format"));
                case "--exclude" -> exclude.addAll(List.of(value(args, ++i, "--exclude").split(",")));
                case "--four-over-six" -> fourOverSix = true;
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'");
            }
        }
        CheckpointQuantizer.newBuilder(target).exclude(exclude.toArray(String[]::new)).fourOverSix(fourOverSix)
                .progress(out::println).build().quantize(Path.of(args[1]), Path.of(args[2]));
        return 0;
    }

    private static int advise(String[] args, PrintStream out) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException("advise needs <model-dir>");
        }
        Hardware hw = Hardware.GB10;
        String phase = "decode";
        long batch = 1;
        long context = 4096;
        double minSqnr = 20;
        List<Precision> formats = null;
        for (int i = 2; i < args.length; i++) {
            String v = value(args, i + 1, args[i]);
            switch (args[i]) {
                case "--hw" -> hw = Hardware.byName(v);
                case "--phase" -> phase = v;
                case "--batch" -> batch = positive("--batch", v);
                case "--context" -> context = positive("--context", v);
                case "--min-sqnr" -> minSqnr = number("--min-sqnr", v);
                case "--formats" -> {
                    formats = new ArrayList<>();
                    for (String f : v.split(",")) {
                        formats.add(Precision.parse(f));
                    }
                }
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'");
            }
            i++;
        }
        Workload w = switch (phase) {
            case "decode" -> Workload.decode(batch, context);
            case "prefill" -> Workload.prefill(batch, context);
            default -> throw new IllegalArgumentException("--phase must be decode or prefill, got '" + phase + "'");
        };
        PrecisionAdvisor advisor = PrecisionAdvisor.on(hw, w).minimumSqnrDb(minSqnr);
        if (formats != null) {
            advisor = advisor.candidates(formats);
        }
        try (ShardedCheckpoint ckpt = ShardedCheckpoint.open(Path.of(args[1]))) {
            List<LayerChoice> choices = advisor.choose(ckpt, LinearSelector.defaults(), s -> { });
            out.printf(Locale.ROOT, "%s %s, batch %d, context %d on %s; SQNR budget %.1f dB%n", args[1], phase, batch, context,
                    hw.name(), minSqnr);
            out.print(PrecisionAdvisor.table(choices));
        }
        return 0;
    }

    private static QuantTarget target(String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "nvfp4", "nvfp4-modelopt" -> QuantTarget.NVFP4_MODELOPT;
            case "nvfp4-ct", "nvfp4-compressed-tensors" -> QuantTarget.NVFP4_COMPRESSED_TENSORS;
            case "fp8", "fp8-tensor" -> QuantTarget.FP8_PER_TENSOR;
            case "fp8-channel" -> QuantTarget.FP8_PER_CHANNEL;
            default -> throw new IllegalArgumentException("--format must be nvfp4, nvfp4-ct, fp8 or fp8-channel, got '" + v + "'");
        };
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static long positive(String option, String v) {
        try {
            long n = Long.parseLong(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " must be a positive integer, got '" + v + "'");
    }

    private static double number(String option, String v) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a number, got '" + v + "'");
        }
    }
}
