package dev.roofline.cuda.cli;

import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Converters;
import dev.roofline.core.cli.Option;
import dev.roofline.core.cli.UsageException;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.bench.AttentionBenchmark;
import dev.roofline.cuda.bench.Report;
import dev.roofline.cuda.bench.ReportFormat;
import dev.roofline.cuda.kernels.DecodeKernels;
import dev.roofline.cuda.kernels.KernelLaunch;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code roofline attention-bench}: roofline's decode attention over an FP16 KV cache at each batch and context, beside
 * a copy of the same KV bytes and the roofline on the measured copy bandwidth ({@link AttentionBenchmark}).
 */
public final class AttentionBenchCommand implements Command {
    static final Option<List<Integer>> BATCHES = Option.of(
            "--batch",
            "B[,B...]",
            "batch sizes (every row attends to the whole context)",
            "1,8,32",
            Converters.positiveInts());
    static final Option<List<Integer>> CONTEXTS =
            Option.of("--context", "T[,T...]", "context lengths in tokens", "8192,32768", Converters.positiveInts());
    static final Option<Long> HEADS = Option.of("--heads", "H", "query heads", "32", Converters.positiveLong());
    static final Option<Long> KV_HEADS = Option.of("--kv-heads", "G", "KV heads", "8", Converters.positiveLong());
    static final Option<Long> HEAD_DIM =
            Option.of("--head-dim", "D", "head size: " + DecodeKernels.HEAD_DIMS, "128", Converters.positiveLong());
    static final Option<String> LAUNCH = Option.of(
            "--launch",
            "L",
            "how the split pass follows the kernel before it: programmatic (as the decoder's step mostly launches"
                    + " it) or ordered; the merge launches as each split block ends",
            "programmatic",
            Converters.oneOf("programmatic", "ordered"));
    static final Option<Path> CSV =
            Option.of("--csv", "FILE", "also write the results as CSV", null, Converters.path());

    @Override
    public String name() {
        return "attention-bench";
    }

    @Override
    public String summary() {
        return "roofline's decode attention beside a copy of the same KV bytes and the roofline";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(BATCHES, CONTEXTS, HEADS, KV_HEADS, HEAD_DIM, DecodeCommand.KV, LAUNCH, CSV);
    }

    @Override
    public void run(Arguments args, PrintStream out, PrintStream err) throws IOException {
        int heads = Math.toIntExact(args.get(HEADS));
        int kvHeads = Math.toIntExact(args.get(KV_HEADS));
        int headDim = Math.toIntExact(args.get(HEAD_DIM));
        if (heads % kvHeads != 0) {
            throw new UsageException("--heads " + heads + " must be a multiple of --kv-heads " + kvHeads);
        }
        if (!DecodeKernels.HEAD_DIMS.contains(headDim)) {
            throw new UsageException("--head-dim must be one of " + DecodeKernels.HEAD_DIMS + ", got " + headDim);
        }
        if (!Cuda.isAvailable()) {
            throw new IllegalStateException(Cuda.unavailableReason().orElseThrow() + " - nothing measured");
        }
        AttentionBenchmark.Results r = AttentionBenchmark.run(
                Cuda.device(0),
                KernelLaunch.valueOf(args.get(LAUNCH).toUpperCase(java.util.Locale.ROOT)),
                args.get(DecodeCommand.KV),
                args.get(BATCHES),
                args.get(CONTEXTS),
                heads,
                kvHeads,
                headDim,
                m -> out.println("  " + Report.line(m)));
        out.println();
        out.print(r.render(ReportFormat.TEXT));
        if (args.has(CSV)) {
            MeasureCommand.write(args.get(CSV), r.render(ReportFormat.CSV));
            out.println("CSV: " + args.get(CSV));
        }
    }
}
