package dev.roofline.quant.cli;

import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Converters;
import dev.roofline.core.cli.Option;
import dev.roofline.core.cli.UsageException;
import dev.roofline.quant.checkpoint.CheckpointQuantizer;
import dev.roofline.quant.checkpoint.QuantTarget;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code roofline quantize <model-dir> <out-dir> [--format nvfp4|nvfp4-ct|fp8|fp8-channel] [--exclude NAME,...]
 * [--four-over-six]}: writes a quantized copy of a safetensors checkpoint. Progress goes to standard output; weights
 * left unquantized because the format cannot hold them, and stale partial outputs of interrupted runs that were
 * removed, are reported on standard error. Bad data (a NaN weight, an existing output, a missing parent folder) is a
 * data error: exit status 1, one line naming the tensor or the path.
 */
public final class QuantizeCommand implements Command {
    static final Option<QuantTarget> FORMAT = Option.of(
            "--format",
            "F",
            "nvfp4 (ModelOpt), nvfp4-ct (compressed-tensors), fp8 (per tensor) or fp8-channel",
            "nvfp4",
            QuantizeCommand::target);
    static final Option<String> EXCLUDE = Option.of(
                    "--exclude",
                    "NAME,...",
                    "more tensors to leave unquantized (name substrings)",
                    null,
                    Converters.text())
            .repeated();
    static final Option<Boolean> FOUR_OVER_SIX = Option.flag(
            "--four-over-six", "NVFP4 only: per block, scale the block maximum to 6 or to 4, whichever is closer");

    @Override
    public String name() {
        return "quantize";
    }

    @Override
    public String summary() {
        return "writes a quantized copy of a safetensors checkpoint (NVFP4 or FP8), one tensor at a time";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(FORMAT, EXCLUDE, FOUR_OVER_SIX);
    }

    @Override
    public List<String> operands() {
        return List.of("model-dir", "out-dir");
    }

    @Override
    public void run(Arguments args, PrintStream out, PrintStream err) throws IOException {
        List<String> dirs = args.operands(2, "quantize needs <model-dir> <out-dir>");
        List<String> exclude = new ArrayList<>();
        for (String e : args.all(EXCLUDE)) {
            exclude.addAll(List.of(e.split(",")));
        }
        CheckpointQuantizer.Builder builder = CheckpointQuantizer.newBuilder(args.get(FORMAT));
        try {
            builder.exclude(exclude.toArray(String[]::new)).fourOverSix(args.has(FOUR_OVER_SIX));
        } catch (IllegalArgumentException e) { // options that do not go together: still the command line's fault
            throw new UsageException(e.getMessage());
        }
        builder.progress(out::println)
                .warnings(err::println)
                .build()
                .quantize(Path.of(dirs.get(0)), Path.of(dirs.get(1)));
    }

    private static QuantTarget target(String option, String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "nvfp4", "nvfp4-modelopt" -> QuantTarget.NVFP4_MODELOPT;
            case "nvfp4-ct", "nvfp4-compressed-tensors" -> QuantTarget.NVFP4_COMPRESSED_TENSORS;
            case "fp8", "fp8-tensor" -> QuantTarget.FP8_PER_TENSOR;
            case "fp8-channel" -> QuantTarget.FP8_PER_CHANNEL;
            default ->
                throw new IllegalArgumentException(
                        option + " must be nvfp4, nvfp4-ct, fp8 or fp8-channel, got '" + v + "'");
        };
    }
}
