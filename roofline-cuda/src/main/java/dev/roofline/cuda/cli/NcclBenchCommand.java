package dev.roofline.cuda.cli;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Converters;
import dev.roofline.core.cli.Option;
import dev.roofline.core.cli.UsageException;
import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.parallel.Collective;
import dev.roofline.core.parallel.CollectiveFit;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.bench.CollectiveBenchmark;
import dev.roofline.cuda.bench.ReportFormat;
import dev.roofline.cuda.nccl.Communicators;
import dev.roofline.cuda.nccl.Nccl;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code roofline nccl-bench}: NCCL's all-reduce, all-gather and reduce-scatter on this host's GPUs, timed as
 * nccl-tests times them, beside NCCL's own cost model on the link, with the α–β fit of each; optionally added to a
 * calibration file ({@link CollectiveBenchmark}).
 */
public final class NcclBenchCommand implements Command {
    static final Option<Long> GPUS =
            Option.of("--gpus", "N", "GPUs 0..N-1 (default: all of this host's)", null, Converters.positiveLong());
    static final Option<String> OPS = Option.of(
            "--ops",
            "OP[,OP...]",
            "all-reduce, all-gather, reduce-scatter",
            "all-reduce,all-gather,reduce-scatter",
            Converters.text());
    static final Option<Long> MIN_BYTES =
            Option.of("--min-bytes", "SIZE", "smallest buffer (8, 64K, 1M, 1G)", "8", Converters.bytes());
    static final Option<Long> MAX_BYTES = Option.of(
            "--max-bytes", "SIZE", "largest buffer; sizes double from the smallest", "1G", Converters.bytes());
    static final Option<Long> ITERS =
            Option.of("--iters", "N", "timed calls per size, after 5 warm-ups", "20", Converters.positiveLong());
    static final Option<String> LAUNCH = Option.of(
            "--launch",
            "L",
            "graph: each size's calls replayed from a CUDA graph, as a graphed decode step runs them (nccl-tests -G);"
                    + " eager: launched one by one, as nccl-tests and PyTorch do by default",
            "graph",
            Converters.oneOf("graph", "eager"));
    static final Option<Interconnect> LINK = Option.of(
            "--link",
            "NAME",
            "interconnect NCCL's cost model assumes (nvlink4 for H100/H200 SXM)",
            "nvlink4",
            Converters.interconnect());
    static final Option<Path> CALIBRATION = Option.of(
            "--calibration",
            "FILE",
            "add the fits to this calibration file (from roofline decode --calibrate), replacing those of the same"
                    + " operations and GPU count",
            null,
            Converters.path());
    static final Option<String> FORMAT =
            Option.of("--format", "F", "text, markdown or csv", "text", Converters.oneOf("text", "markdown", "csv"));

    @Override
    public String name() {
        return "nccl-bench";
    }

    @Override
    public String summary() {
        return "NCCL collectives on this host's GPUs (nccl-tests' bandwidths) beside NCCL's cost model, fitted";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(GPUS, OPS, MIN_BYTES, MAX_BYTES, ITERS, LAUNCH, LINK, CALIBRATION, FORMAT);
    }

    @Override
    public void run(Arguments args, PrintStream out, PrintStream err) throws IOException {
        List<Collective.Op> ops = ops(args.get(OPS));
        long min = args.get(MIN_BYTES);
        long max = args.get(MAX_BYTES);
        if (max < min) {
            throw new UsageException("--max-bytes " + max + " is below --min-bytes " + min);
        }
        Interconnect link = args.get(LINK);
        Path file = args.has(CALIBRATION) ? args.get(CALIBRATION) : null;
        Calibration calibration = null;
        if (file != null) {
            if (!Files.isRegularFile(file)) {
                throw new UsageException("--calibration " + file + ": no such file; write one with roofline decode"
                        + " --calibrate FILE first");
            }
            try {
                calibration = Calibration.read(file);
            } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
                throw new UsageException("--calibration: " + e.getMessage());
            }
        }
        if (!Nccl.isAvailable()) {
            throw new IllegalStateException(Nccl.unavailableReason().orElseThrow() + " - nothing measured");
        }
        int available = Cuda.deviceCount();
        int gpus = args.has(GPUS) ? Math.toIntExact(args.get(GPUS)) : available;
        if (gpus > available) {
            throw new UsageException("--gpus " + gpus + ": this host has " + available);
        }
        if (gpus < 2) {
            throw new UsageException(
                    "--gpus: a collective that moves bytes needs at least 2 GPUs; this host has " + available);
        }
        ReportFormat format = ReportFormat.parse(args.get(FORMAT));
        CollectiveBenchmark.Results r;
        try (Communicators comms = Communicators.ofFirstDevices(gpus)) {
            boolean graph = args.get(LAUNCH).equals("graph");
            r = CollectiveBenchmark.run(comms, ops, min, max, Math.toIntExact(args.get(ITERS)), graph, link, m -> {
                if (format == ReportFormat.TEXT) {
                    err.printf(
                            Locale.ROOT,
                            "  %s %d B: %.2f us%n",
                            m.op().name().toLowerCase(Locale.ROOT),
                            m.bytes(),
                            m.seconds() * 1e6);
                }
            });
        }
        out.print(r.render(format));
        if (file != null) {
            calibration
                    .withCollectives(merged(calibration.collectives(), r.fits()))
                    .write(file);
            out.println("collectives added to " + file);
        }
    }

    /** {@code kept} with each of {@code fresh} in place of the fit of its operation and GPU count. */
    static List<CollectiveFit> merged(List<CollectiveFit> kept, List<CollectiveFit> fresh) {
        List<CollectiveFit> out = new ArrayList<>();
        for (CollectiveFit k : kept) {
            if (fresh.stream().noneMatch(f -> f.op() == k.op() && f.ranks() == k.ranks())) {
                out.add(k);
            }
        }
        out.addAll(fresh);
        return out;
    }

    /** "all-reduce,all-gather" as operations, in the order given. */
    static List<Collective.Op> ops(String text) {
        List<Collective.Op> ops = new ArrayList<>();
        for (String s : text.split(",", -1)) {
            String name = s.strip().toUpperCase(Locale.ROOT).replace('-', '_');
            Collective.Op op;
            try {
                op = Collective.Op.valueOf(name);
            } catch (IllegalArgumentException e) {
                op = null;
            }
            if (op == null || !CollectiveBenchmark.OPS.contains(op)) {
                throw new UsageException(
                        "--ops: '" + s.strip() + "' is not one of all-reduce, all-gather," + " reduce-scatter");
            }
            if (ops.contains(op)) {
                throw new UsageException("--ops: '" + s.strip() + "' is given twice");
            }
            ops.add(op);
        }
        return ops;
    }
}
