package dev.roofline.cuda.cli;

import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Converters;
import dev.roofline.core.cli.Option;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.bench.GemvBenchmark;
import dev.roofline.cuda.bench.GemvBenchmarkOptions;
import dev.roofline.cuda.bench.GemvBenchmarkResults;
import dev.roofline.cuda.bench.Report;
import dev.roofline.cuda.bench.ReportFormat;
import dev.roofline.cuda.kernels.WeightFormat;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code roofline gemv-bench}: roofline's GEMV kernels at M=1 (or the {@code --rows} given) in every weight format, each beside cuBLASLt FP16, a
 * same-bytes copy and the roofline on this GPU's measured copy bandwidth, then a Llama-3-8B decoder layer's linears
 * ({@link GemvBenchmark}). {@code --formats} and {@code --shape} narrow it for a profiler; {@code --no-cublas} and
 * {@code --no-layer} drop the baseline and the layer. Prints each kernel as it is measured, then the report as text;
 * {@code --csv} and {@code --markdown} also write it to files.
 */
public final class GemvBenchCommand implements Command {
    static final Option<List<WeightFormat>> FORMATS = Option.of(
            "--formats",
            "F[,F...]",
            "only these weight formats, e.g. NVFP4,MXFP4 (default: all)",
            null,
            (option, value) -> GemvBenchmarkOptions.parseFormats(value));
    static final Option<GemvBenchmarkOptions.Shape> SHAPE = Option.of(
                    "--shape",
                    "NxK",
                    "a weight shape, output features x input features, e.g. 8192x28672; repeatable (default: "
                            + GemvBenchmarkOptions.DEFAULT_SHAPES.stream()
                                    .map(Object::toString)
                                    .reduce((a, b) -> a + ", " + b)
                                    .orElseThrow()
                            + ")",
                    null,
                    (option, value) -> GemvBenchmarkOptions.Shape.parse(value))
            .repeated();
    static final Option<List<Integer>> ROWS = Option.of(
            "--rows",
            "M[,M...]",
            "activation rows (batched decode's M), 1.." + GemvBenchmarkOptions.MAX_ROWS
                    + ", e.g. 1,2,4,8,16 (default: 1)",
            null,
            (option, value) -> GemvBenchmarkOptions.parseRows(value));
    static final Option<Long> REPETITIONS = Option.of(
            "--repetitions", "N", "timed samples per kernel (median reported)", null, Converters.positiveLong());
    static final Option<Boolean> NO_CUBLAS = Option.flag("--no-cublas", "skip the cuBLASLt FP16 baseline");
    static final Option<Boolean> NO_LAYER = Option.flag("--no-layer", "skip the Llama-3-8B decoder layer");
    static final Option<Path> CSV =
            Option.of("--csv", "FILE", "also write the results as CSV", null, Converters.path());
    static final Option<Path> MARKDOWN =
            Option.of("--markdown", "FILE", "also write the report as Markdown tables", null, Converters.path());

    @Override
    public String name() {
        return "gemv-bench";
    }

    @Override
    public String summary() {
        return "roofline's GEMV kernels in every weight format beside cuBLASLt, a same-bytes copy and the roofline";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(FORMATS, SHAPE, ROWS, REPETITIONS, NO_CUBLAS, NO_LAYER, CSV, MARKDOWN);
    }

    @Override
    public void run(Arguments args, PrintStream out, PrintStream err) throws IOException {
        GemvBenchmarkOptions o = options(args);
        if (!Cuda.isAvailable()) {
            throw new IllegalStateException(Cuda.unavailableReason().orElseThrow() + " - nothing measured");
        }
        GemvBenchmarkResults r = GemvBenchmark.run(Cuda.device(0), o, m -> out.println("  " + Report.line(m)));
        out.println();
        out.print(r.render(ReportFormat.TEXT));
        if (args.has(CSV)) {
            MeasureCommand.write(args.get(CSV), r.render(ReportFormat.CSV));
            out.println("CSV: " + args.get(CSV));
        }
        if (args.has(MARKDOWN)) {
            MeasureCommand.write(args.get(MARKDOWN), r.render(ReportFormat.MARKDOWN));
            out.println("Markdown: " + args.get(MARKDOWN));
        }
    }

    /** The benchmark the options describe. */
    static GemvBenchmarkOptions options(Arguments args) {
        GemvBenchmarkOptions o = GemvBenchmarkOptions.defaults();
        if (args.has(FORMATS)) {
            o = o.withFormats(args.get(FORMATS));
        }
        if (args.has(SHAPE)) {
            o = o.withShapes(args.all(SHAPE));
        }
        if (args.has(ROWS)) {
            o = o.withRows(args.get(ROWS));
        }
        if (args.has(REPETITIONS)) {
            o = o.withRepetitions(Math.toIntExact(args.get(REPETITIONS)));
        }
        return o.withCublasBaseline(!args.has(NO_CUBLAS)).withDecodeLayer(!args.has(NO_LAYER));
    }
}
