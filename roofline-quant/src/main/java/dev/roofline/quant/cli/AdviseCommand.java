package dev.roofline.quant.cli;

import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Converters;
import dev.roofline.core.cli.Option;
import dev.roofline.core.cli.UsageException;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Workload;
import dev.roofline.quant.checkpoint.LinearSelector;
import dev.roofline.quant.recommend.LayerChoice;
import dev.roofline.quant.recommend.PrecisionAdvisor;
import dev.roofline.quant.safetensors.ShardedCheckpoint;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code roofline advise <model-dir> [--hw gb10] [--batch 1] [--phase decode|prefill] [--context 4096]
 * [--min-sqnr 20] [--formats nvfp4,fp8] [--compare nf4,int4,...]}: per linear layer of a checkpoint, the format
 * {@code quantize} should write, one for the whole checkpoint, on every layer where it meets the SQNR budget, and the
 * {@code quantize} command that writes it.
 */
public final class AdviseCommand implements Command {
    static final Option<Hardware> HW = Option.of("--hw", "NAME", "hardware", "gb10", Converters.hardware());
    static final Option<String> PHASE =
            Option.of("--phase", "P", "decode or prefill", "decode", Converters.oneOf("decode", "prefill"));
    static final Option<Long> BATCH = Option.of("--batch", "B", "sequences", "1", Converters.positiveLong());
    static final Option<Long> CONTEXT =
            Option.of("--context", "S", "context tokens", "4096", Converters.positiveLong());
    static final Option<Double> MIN_SQNR =
            Option.of("--min-sqnr", "DB", "the SQNR budget each layer must meet", "20", Converters.number());
    static final Option<List<Precision>> FORMATS = Option.of(
            "--formats",
            "P,...",
            "candidate formats, each one quantize writes (default: all of them, nvfp4 and fp8)",
            null,
            Converters.precisions());
    static final Option<List<Precision>> COMPARE = Option.of(
            "--compare",
            "P,...",
            "formats to measure beside the candidates, never recommended (e.g. nf4,int4,mxfp4)",
            null,
            Converters.precisions());

    @Override
    public String name() {
        return "advise";
    }

    @Override
    public String summary() {
        return "per linear layer of a checkpoint, the fastest format that meets an SQNR budget";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(HW, PHASE, BATCH, CONTEXT, MIN_SQNR, FORMATS, COMPARE);
    }

    @Override
    public List<String> operands() {
        return List.of("model-dir");
    }

    @Override
    public void run(Arguments args, PrintStream out, PrintStream err) throws IOException {
        String dir = args.operands(1, "advise needs <model-dir>").getFirst();
        Hardware hw = args.get(HW);
        String phase = args.get(PHASE);
        long batch = args.get(BATCH);
        long context = args.get(CONTEXT);
        double minSqnr = args.get(MIN_SQNR);
        Workload w = phase.equals("prefill") ? Workload.prefill(batch, context) : Workload.decode(batch, context);
        PrecisionAdvisor advisor = PrecisionAdvisor.on(hw, w).minimumSqnrDb(minSqnr);
        try {
            if (args.find(FORMATS).isPresent()) {
                for (Precision p : args.get(FORMATS)) {
                    if (!PrecisionAdvisor.WRITABLE.contains(p)) {
                        throw new UsageException(
                                "--formats: " + PrecisionAdvisor.unwritable(p) + ": use --compare " + p.shortName());
                    }
                }
                advisor = advisor.candidates(args.get(FORMATS));
            }
            if (args.find(COMPARE).isPresent()) {
                advisor = advisor.compareWith(args.get(COMPARE));
            }
        } catch (IllegalArgumentException e) { // a format the option cannot take: the command line's fault
            throw new UsageException(e.getMessage());
        }
        try (ShardedCheckpoint ckpt = ShardedCheckpoint.open(Path.of(dir))) {
            List<LayerChoice> choices = advisor.choose(ckpt, LinearSelector.defaults(), s -> {});
            out.printf(
                    Locale.ROOT,
                    "%s %s, batch %d, context %d on %s; SQNR budget %.1f dB%n",
                    dir,
                    phase,
                    batch,
                    context,
                    hw.name(),
                    minSqnr);
            out.print(PrecisionAdvisor.table(choices));
            out.println(applyLine(dir, choices));
        }
    }

    /** The quantize command that writes what {@code choices} recommend, or why there is nothing to write. */
    static String applyLine(String dir, List<LayerChoice> choices) {
        List<Precision> formats = choices.stream()
                .map(LayerChoice::chosen)
                .filter(p -> p != Precision.FP16)
                .distinct()
                .toList();
        if (formats.isEmpty()) {
            return "apply: nothing to quantize, every layer stays as it is";
        }
        List<String> kept = choices.stream()
                .filter(c -> c.chosen() == Precision.FP16)
                .map(LayerChoice::layer)
                .toList();
        return "apply: roofline quantize " + dir + " OUT-DIR --format " + quantizeFormat(formats.getFirst())
                + (kept.isEmpty() ? "" : " --exclude " + String.join(",", kept));
    }

    /** quantize's --format value for a precision the advisor measures as it does: FP8 per output channel. */
    private static String quantizeFormat(Precision p) {
        return switch (p) {
            case NVFP4 -> "nvfp4";
            case FP8_E4M3 -> "fp8-channel";
            default ->
                throw new IllegalStateException(
                        "quantize writes no " + p + "; the advisor only recommends " + PrecisionAdvisor.WRITABLE);
        };
    }
}
