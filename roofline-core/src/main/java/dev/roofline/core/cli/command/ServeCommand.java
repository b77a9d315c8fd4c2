package dev.roofline.core.cli.command;

import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Converters;
import dev.roofline.core.cli.Option;
import dev.roofline.core.cli.UsageException;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.core.parallel.Deployment;
import dev.roofline.core.parallel.Serving;
import dev.roofline.core.parallel.ServingPrediction;
import dev.roofline.core.parallel.ServingSearch;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.report.HtmlReport;
import dev.roofline.core.report.ServingChart;
import dev.roofline.core.report.ServingTable;
import dev.roofline.core.transformer.Workload;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code roofline serve MODEL --hw H --gpus N --input I --output O}: TTFT, time per output token, end-to-end latency,
 * throughput and memory per GPU of a model served on several GPUs ({@link Serving}).
 */
public final class ServeCommand implements Command {
    static final Option<Hardware> HW = Option.of("--hw", "NAME", "hardware", "h100", Converters.hardware());
    static final Option<Long> GPUS =
            Option.of("--gpus", "N", "GPUs sharing each layer (tensor parallel)", "1", Converters.positiveLong());
    static final Option<Long> PP = Option.of("--pp", "N", "pipeline stages", "1", Converters.positiveLong());
    static final Option<Long> EP = Option.of(
            "--ep", "N", "expert parallel: 1, or --gpus to hold whole experts", "1", Converters.positiveLong());
    static final Option<Long> DP = Option.of("--dp", "N", "data-parallel replicas", "1", Converters.positiveLong());
    static final Option<Long> MICRO =
            Option.of("--micro-batches", "N", "micro-batches per pipeline step", "1", Converters.positiveLong());
    static final Option<Interconnect> LINK = Option.of(
            "--link",
            "NAME",
            "interconnect (default: the hardware's: nvlink4 for H100/H200, nvlink5 for B200/GB200, cx7-200g for"
                    + " GB10)",
            null,
            Converters.interconnect());
    static final Option<Long> INPUT = Option.of("--input", "T", "prompt tokens", "2048", Converters.positiveLong());
    static final Option<Long> OUTPUT = Option.of("--output", "T", "generated tokens", "256", Converters.positiveLong());
    static final Option<Long> CONCURRENCY =
            Option.of("--concurrency", "B", "requests per replica", "1", Converters.positiveLong());
    static final Option<Precision> EXPERT_WEIGHTS = Option.of(
            "--expert-weights", "P", "routed experts' precision (default: --weights)", null, Converters.precision());
    static final Option<Double> TTFT =
            Option.of("--ttft", "MS", "search: time-to-first-token target (with --tpot)", null, Converters.number());
    static final Option<Double> TPOT =
            Option.of("--tpot", "MS", "search: time-per-output-token target (with --ttft)", null, Converters.number());
    static final Option<List<Precision>> SEARCH_WEIGHTS = Option.of(
            "--search-weights",
            "P,...",
            "search: weight precisions to try (default: --weights)",
            null,
            Converters.precisions());
    static final Option<String> FORMAT = Option.of(
            "--format",
            "F",
            "text, markdown or csv (a search: its Pareto set, the winner last)",
            "text",
            Converters.oneOf("text", "markdown", "csv"));
    static final Option<Path> SVG =
            Option.of("--svg", "FILE", "search: write the Pareto chart to FILE", null, Converters.path());
    static final Option<Path> HTML = Option.of(
            "--html",
            "FILE",
            "search: write the Pareto chart and table as one self-contained HTML page to FILE",
            null,
            Converters.path());
    static final Option<Boolean> OVERLAP =
            Option.flag("--overlap", "hide communication behind computation (off: they add)");

    @Override
    public String name() {
        return "serve";
    }

    @Override
    public String summary() {
        return "TTFT, time per output token, throughput and memory of a model served on several GPUs";
    }

    @Override
    public List<String> operands() {
        return List.of("model");
    }

    @Override
    public List<Option<?>> options() {
        return List.of(
                HW,
                GPUS,
                PP,
                EP,
                DP,
                MICRO,
                LINK,
                INPUT,
                OUTPUT,
                CONCURRENCY,
                ModelOptions.WEIGHTS,
                EXPERT_WEIGHTS,
                ModelOptions.KV,
                OVERLAP,
                TTFT,
                TPOT,
                SEARCH_WEIGHTS,
                FORMAT,
                SVG,
                HTML);
    }

    @Override
    public void run(Arguments args, PrintStream out, PrintStream err) throws IOException {
        List<String> operands =
                args.operands(1, "serve needs a model: a preset (" + Models.knownNames() + ") or a config.json path");
        Model model = ModelOptions.model(operands.getFirst());
        Hardware hw = args.get(HW);
        Interconnect link = args.has(LINK) ? args.get(LINK) : defaultLink(hw);
        if (args.has(TTFT) != args.has(TPOT)) {
            throw new UsageException("a search needs both --ttft and --tpot");
        }
        if (args.has(SVG) && !args.has(TTFT)) {
            throw new UsageException("--svg draws a search's Pareto set: give --ttft and --tpot");
        }
        if (args.has(HTML) && !args.has(TTFT)) {
            throw new UsageException("--html shows a search's Pareto set: give --ttft and --tpot");
        }
        if (args.has(TTFT)) {
            ServingSearch.Result r = ServingSearch.run(
                    model,
                    hw,
                    link,
                    Math.toIntExact(args.get(GPUS)),
                    Math.toIntExact(args.get(INPUT)),
                    Math.toIntExact(args.get(OUTPUT)),
                    args.get(TTFT) / 1e3,
                    args.get(TPOT) / 1e3,
                    args.find(SEARCH_WEIGHTS).orElse(List.of(args.get(ModelOptions.WEIGHTS))));
            if (args.has(SVG)) {
                Files.writeString(args.get(SVG), ServingChart.svg(r.pareto(), r.winner()));
            }
            if (args.has(HTML)) {
                String heading = String.format(
                        Locale.ROOT,
                        "Serving on %d GPUs: TTFT <= %s ms, TPOT <= %s ms, %d setups priced",
                        args.get(GPUS),
                        args.get(TTFT),
                        args.get(TPOT),
                        r.tried());
                try {
                    HtmlReport.titled(model.name() + " on " + hw.name())
                            .withServing(heading, r)
                            .write(args.get(HTML));
                } catch (java.io.UncheckedIOException e) {
                    throw new IOException(e.getMessage(), e);
                }
            }
            out.print(
                    switch (args.get(FORMAT)) {
                        case "markdown" -> ServingTable.markdown(r.pareto());
                        case "csv" -> ServingTable.csv(r.pareto());
                        default -> search(r, args.get(TTFT), args.get(TPOT));
                    });
            return;
        }
        Deployment d;
        try {
            d = new Deployment(
                    Math.toIntExact(args.get(GPUS)),
                    Math.toIntExact(args.get(PP)),
                    Math.toIntExact(args.get(EP)),
                    Math.toIntExact(args.get(DP)),
                    Math.toIntExact(args.get(MICRO)),
                    link,
                    args.has(OVERLAP));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Precision weights = args.get(ModelOptions.WEIGHTS);
        Workload base = Workload.decode(1, 1)
                .withWeights(weights)
                .withExpertWeights(args.find(EXPERT_WEIGHTS).orElse(weights))
                .withKvCache(args.get(ModelOptions.KV));
        ServingPrediction s = Serving.predict(
                model,
                hw,
                d,
                base,
                Math.toIntExact(args.get(INPUT)),
                Math.toIntExact(args.get(OUTPUT)),
                Math.toIntExact(args.get(CONCURRENCY)));
        out.print(
                switch (args.get(FORMAT)) {
                    case "markdown" -> ServingTable.markdown(List.of(s));
                    case "csv" -> ServingTable.csv(List.of(s));
                    default -> text(s, base);
                });
    }

    static String text(ServingPrediction s, Workload base) {
        Deployment d = s.deployment();
        double gib = 1L << 30;
        return String.format(
                Locale.ROOT,
                "%s on %d x %s (TP %d, PP %d, EP %d, DP %d, %d micro-batches, %s, overlap %s); W %s, KV %s%n"
                        + "requests: %d per replica, %,d prompt + %,d generated tokens%n"
                        + "TTFT %.2f ms, time per output token %.3f ms, end-to-end %.1f ms%n"
                        + "throughput %.1f tokens/s (%.1f per GPU)%n"
                        + "per GPU: weights %.2f GiB + KV %.2f GiB of %.0f GiB (%.0f %% kept for activations): %s;"
                        + " at most %,d requests of this length, %,d tokens of KV%n",
                s.model().name(),
                d.gpus(),
                s.hardware().name(),
                d.tensorParallel(),
                d.pipelineParallel(),
                d.expertParallel(),
                d.dataParallel(),
                d.microBatches(),
                d.link().name(),
                d.overlap() ? "on" : "off",
                base.weights().displayName(),
                base.kvCache().displayName(),
                s.concurrency(),
                s.inputTokens(),
                s.outputTokens(),
                s.ttftSeconds() * 1e3,
                s.tpotSeconds() * 1e3,
                s.endToEndSeconds() * 1e3,
                s.tokensPerSecond(),
                s.tokensPerSecondPerGpu(),
                s.weightBytesPerGpu() / gib,
                s.kvBytesPerGpu() / gib,
                s.hardware().memoryBytes() / gib,
                Serving.ACTIVATION_MARGIN * 100,
                s.fits() ? "fits" : "does NOT fit",
                s.maxConcurrency(),
                s.kvCapacityTokens());
    }

    static String search(ServingSearch.Result r, double ttftMillis, double tpotMillis) {
        StringBuilder sb = new StringBuilder(String.format(
                Locale.ROOT,
                "%d setups tried (tensor x pipeline splits, weight precisions, concurrency 1, 2, 4, ...); targets TTFT <="
                        + " %.1f ms, time per output token <= %.1f ms%n",
                r.tried(),
                ttftMillis,
                tpotMillis));
        if (r.winner() == null) {
            return sb.append("no setup meets both targets\n").toString();
        }
        sb.append("Pareto set (time per output token against tokens/s per GPU):\n");
        for (ServingPrediction s : r.pareto()) {
            sb.append("  ").append(setup(s)).append('\n');
        }
        return sb.append("winner (most tokens/s per GPU within the targets): ")
                .append(setup(r.winner()))
                .append('\n')
                .toString();
    }

    private static String setup(ServingPrediction s) {
        Deployment d = s.deployment();
        return String.format(
                Locale.ROOT,
                "TP %d PP %d, W %s, concurrency %d: TTFT %.1f ms, TPOT %.2f ms, %.1f tokens/s per GPU",
                d.tensorParallel(),
                d.pipelineParallel(),
                s.weights().displayName(),
                s.concurrency(),
                s.ttftSeconds() * 1e3,
                s.tpotSeconds() * 1e3,
                s.tokensPerSecondPerGpu());
    }

    /** The link a GPU ships with between its peers; one without a known default needs --link. */
    static Interconnect defaultLink(Hardware hw) {
        if (hw == Hardware.H100_SXM || hw == Hardware.H200) {
            return Interconnect.NVLINK_4;
        }
        if (hw == Hardware.B200 || hw == Hardware.GB200) {
            return Interconnect.NVLINK_5;
        }
        if (hw == Hardware.GB10) {
            return Interconnect.CONNECTX_7_GB10;
        }
        throw new UsageException("serve on " + hw.name() + " needs --link NAME (one of: "
                + String.join(
                        ", ",
                        Interconnect.all().stream().map(Interconnect::name).toList()) + ")");
    }
}
