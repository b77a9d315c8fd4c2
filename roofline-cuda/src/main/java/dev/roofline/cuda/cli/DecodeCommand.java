package dev.roofline.cuda.cli;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Converters;
import dev.roofline.core.cli.Option;
import dev.roofline.core.cli.UsageException;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.ConfigJson;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.bench.BenchmarkOptions;
import dev.roofline.cuda.bench.DecodeCalibration;
import dev.roofline.cuda.bench.DecodeStepBenchmark;
import dev.roofline.cuda.bench.DecodeStepChart;
import dev.roofline.cuda.bench.DecodeStepReport;
import dev.roofline.cuda.bench.DecodeStepResult;
import dev.roofline.cuda.bench.GemvBenchmarkOptions;
import dev.roofline.cuda.bench.GemvRowScaling;
import dev.roofline.cuda.bench.ReportFormat;
import dev.roofline.cuda.decode.CheckpointWeights;
import dev.roofline.cuda.decode.DecoderOperator;
import dev.roofline.cuda.decode.DecoderShape;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.KvCacheFormat;
import dev.roofline.cuda.kernels.WeightFormat;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code roofline decode [MODEL|config.json]}: decode steps of a dense or Mixtral-style mixture-of-experts model on
 * the GPU, with random weights or a dense model's checkpoint ({@code --checkpoint}), each
 * operator and the whole step beside the roofline prediction on the datasheet and on the measured ceilings
 * ({@link DecodeStepBenchmark}); without a GPU, the prediction per operator and a line saying nothing was measured.
 */
public final class DecodeCommand implements Command {
    /**
     * The attention's second calibration point is timed alone at this many times the calibration context (16k for
     * 1k): long enough that its bytes dominate, and not one of the contexts a sweep usually holds out.
     */
    static final int ATTENTION_CALIBRATION_CONTEXT_FACTOR = 16;

    /**
     * A calibration fitted at one sequence also times the attention alone at these many sequences a step
     * ({@code attention h<HEADS>}, sequences × the model's KV heads): the decode batches a sweep holds out.
     */
    static final List<Integer> ATTENTION_CALIBRATION_BATCHES = List.of(8, 16, 32);

    static final Option<List<WeightFormat>> WEIGHTS = Option.of(
            "--weights",
            "F[,F...]",
            "weight formats of the linear layers",
            "FP16,FP8_E4M3,NVFP4",
            (option, value) -> GemvBenchmarkOptions.parseFormats(value));
    static final Option<List<Integer>> BATCH =
            Option.of("--batch", "B[,B...]", "sequences per step", "1", Converters.positiveInts());
    static final Option<List<Integer>> CONTEXT = Option.of(
            "--context", "T[,T...]", "tokens in the KV cache, this step's included", "1024", Converters.positiveInts());
    static final Option<List<KvCacheFormat>> KV = Option.of(
            "--kv",
            "P[,P...]",
            "KV-cache precisions: fp16, bf16 or fp8 (E4M3, scales of 1)",
            "fp16",
            (option, value) -> {
                List<KvCacheFormat> formats = new java.util.ArrayList<>();
                for (Precision p : Converters.precisions().convert(option, value)) {
                    if (!KvCacheFormat.PRECISIONS.contains(p)) {
                        throw new IllegalArgumentException(option + " must be fp16, bf16 or fp8 (E4M3), got '" + p
                                + "': the decode kernels store the KV cache in no other precision");
                    }
                    formats.add(KvCacheFormat.of(p));
                }
                return List.copyOf(formats);
            });
    static final Option<Double> THETA = Option.of("--rope-theta", "THETA", "RoPE base", "500000", Converters.number());
    static final Option<List<KernelLaunch>> LAUNCH = Option.of(
            "--launch",
            "L[,L...]",
            "kernel launch order: programmatic (each kernel resident while the one before drains) or ordered",
            "programmatic",
            (option, value) -> java.util.Arrays.stream(value.split(","))
                    .map(v -> KernelLaunch.valueOf(Converters.oneOf("programmatic", "ordered")
                            .convert(option, v.strip().toLowerCase(java.util.Locale.ROOT))
                            .toUpperCase(java.util.Locale.ROOT)))
                    .toList());
    static final Option<Path> CALIBRATE = Option.of(
            "--calibrate",
            "FILE",
            "fit a calibration to the first batch and context of the sweep (every format; attention also alone at 16x"
                    + " the context), write it to FILE and check it on the rest",
            null,
            (option, value) -> Path.of(value));
    static final Option<Path> CALIBRATION = Option.of(
            "--calibration",
            "FILE",
            "check a saved calibration's predictions against every measured step",
            null,
            (option, value) -> Path.of(value));
    static final Option<Path> SVG = Option.of(
            "--svg",
            "DIR",
            "write each measured step's roofline chart (predicted filled, measured hollow) into DIR",
            null,
            (option, value) -> Path.of(value));
    static final Option<Path> CHECKPOINT = Option.of(
            "--checkpoint",
            "DIR",
            "a safetensors checkpoint (FP16, BF16, FP8 or NVFP4 as roofline quantize writes them) to run instead of"
                    + " random weights; its config.json names the model",
            null,
            (option, value) -> Path.of(value));
    static final Option<Hardware> HW =
            Option.of("--hw", "NAME", "hardware to predict on when no GPU is present", "h200", Converters.hardware());
    static final Option<String> FORMAT =
            Option.of("--format", "F", "text, markdown or csv", "text", Converters.oneOf("text", "markdown", "csv"));

    @Override
    public String name() {
        return "decode";
    }

    @Override
    public String summary() {
        return "decode steps of a dense or mixture-of-experts model on this GPU, per operator beside the roofline"
                + " prediction";
    }

    @Override
    public List<String> operands() {
        return List.of("model|config.json");
    }

    @Override
    public String synopsis() {
        return name() + " [model|config.json] [options]";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(WEIGHTS, BATCH, CONTEXT, KV, LAUNCH, CHECKPOINT, CALIBRATE, CALIBRATION, SVG, THETA, HW, FORMAT);
    }

    @Override
    public void run(Arguments args, PrintStream out, PrintStream err) throws IOException {
        List<String> operands = args.operands();
        Path checkpoint = args.has(CHECKPOINT) ? args.get(CHECKPOINT) : null;
        if (checkpoint != null && args.has(WEIGHTS)) {
            throw new UsageException("--weights and --checkpoint: a checkpoint's weights have their own format");
        }
        if (checkpoint != null && !Files.isRegularFile(checkpoint.resolve("config.json"))) {
            throw new UsageException("--checkpoint " + checkpoint + ": no config.json there");
        }
        String name = operands.isEmpty()
                ? checkpoint != null ? checkpoint.resolve("config.json").toString() : "llama-3-8b" // Llama-3-8B
                : operands.getFirst();
        Model model = Files.exists(Path.of(name)) ? ConfigJson.read(Path.of(name)) : Models.byName(name);
        DecoderShape shape = DecoderShape.of(model);
        ReportFormat format = ReportFormat.parse(args.get(FORMAT));
        if (format == ReportFormat.CSV && (args.has(CALIBRATE) || args.has(CALIBRATION))) {
            throw new UsageException("--format csv holds one table; the calibration check is a second one: use text"
                    + " or markdown with --calibrate or --calibration");
        }
        if (args.has(CALIBRATE) && args.has(CALIBRATION)) {
            throw new UsageException("--calibrate fits a calibration and --calibration reads one: give one of them");
        }
        Calibration saved = args.has(CALIBRATION) ? readCalibration(args.get(CALIBRATION)) : null;
        if (args.has(SVG) && !Files.isDirectory(args.get(SVG))) {
            throw new UsageException("--svg " + args.get(SVG) + ": no such directory");
        }
        if (args.has(CALIBRATE)) {
            Path folder = args.get(CALIBRATE).toAbsolutePath().getParent();
            if (folder == null || !Files.isDirectory(folder) || Files.isDirectory(args.get(CALIBRATE))) {
                throw new UsageException("--calibrate " + args.get(CALIBRATE) + ": give a file in an existing folder");
            }
        }
        List<WeightFormat> formats = args.get(WEIGHTS);
        if (checkpoint != null) {
            try (CheckpointWeights weights = CheckpointWeights.open(checkpoint, shape)) {
                formats = List.of(weights.format());
            }
        }
        if (!Cuda.isAvailable()) {
            Hardware hw = args.get(HW);
            for (WeightFormat f : formats) {
                for (KvCacheFormat kv : args.get(KV)) {
                    for (int b : args.get(BATCH)) {
                        for (int c : args.get(CONTEXT)) {
                            Workload w = DecodeStepBenchmark.workload(f, kv, b, c);
                            String title = model.name() + ", " + f + " weights, " + kv + " KV, batch " + b
                                    + ", context " + c + ", predicted on the " + hw.name() + " datasheet";
                            out.print(DecodeStepReport.prediction(
                                    title, Transformer.of(model, hw).predict(w), shape, f, b, format));
                        }
                    }
                }
            }
            out.flush();
            throw new IllegalStateException(Cuda.unavailableReason().orElseThrow() + " - nothing measured");
        }
        DecodeStepBenchmark.Results results;
        if (checkpoint == null) {
            results = DecodeStepBenchmark.run(Cuda.device(0), model, sweep(args), args.get(THETA), true);
        } else {
            DecodeStepBenchmark.Sweep s = sweep(args);
            try (CheckpointWeights weights = CheckpointWeights.open(checkpoint, shape)) {
                results = DecodeStepBenchmark.run(
                        Cuda.device(0),
                        model,
                        new DecodeStepBenchmark.Sweep(formats, s.kvFormats(), s.batches(), s.contexts(), s.launches()),
                        f -> weights.upload(),
                        args.get(THETA),
                        true);
            }
        }
        out.print(DecodeStepReport.render(results, format));
        if (results.results().stream().noneMatch(DecodeStepResult::measured)) {
            out.flush();
            throw new IllegalStateException(model.name() + ": nothing measured; "
                    + results.results().getFirst().notRun());
        }
        if (args.has(SVG)) {
            for (DecodeStepResult r : results.results()) {
                if (r.measured()) {
                    Files.writeString(args.get(SVG).resolve(DecodeStepChart.fileName(r)), DecodeStepChart.svg(r));
                }
            }
        }
        Calibration calibration = null;
        List<DecodeStepResult> fittedTo = List.of();
        if (args.has(CALIBRATE)) {
            Fitted fitted;
            try {
                fitted = fitCalibration("roofline decode", model, shape, sweep(args), results);
            } catch (IllegalStateException e) {
                throw new IllegalStateException("--calibrate: " + e.getMessage(), e);
            }
            calibration = fitted.calibration();
            fittedTo = fitted.fittedTo();
            calibration.write(args.get(CALIBRATE));
        } else {
            calibration = saved;
        }
        if (calibration != null) {
            out.print(DecodeStepReport.calibration(
                    DecodeCalibration.check(model, calibration, results.results(), fittedTo), calibration, format));
        }
    }

    /** A calibration and the measured steps it was fitted to. */
    record Fitted(Calibration calibration, List<DecodeStepResult> fittedTo) {}

    /**
     * Fits a calibration to the steps of {@code results} at the sweep's first KV format, batch, context and launch order
     * (every weight format), with the attention also timed alone at {@value #ATTENTION_CALIBRATION_CONTEXT_FACTOR}× the
     * context when its caches fit in free memory; {@code command} names what measured it in the calibration's source.
     *
     * @throws IllegalStateException when nothing was measured at that configuration
     */
    static Fitted fitCalibration(
            String command,
            Model model,
            DecoderShape shape,
            DecodeStepBenchmark.Sweep sweep,
            DecodeStepBenchmark.Results results) {
        List<DecodeStepResult> fittedTo = results.results().stream()
                .filter(r -> r.measured()
                        && r.config().kv().equals(sweep.kvFormats().getFirst())
                        && r.config().batch() == sweep.batches().getFirst()
                        && r.config().context() == sweep.contexts().getFirst()
                        && r.config().launch() == sweep.launches().getFirst())
                .toList();
        int batch = sweep.batches().getFirst();
        if (fittedTo.isEmpty()) {
            throw new IllegalStateException("nothing was measured at the sweep's first batch and" + " context (" + batch
                    + ", " + sweep.contexts().getFirst() + ") to fit a calibration to");
        }
        int context = sweep.contexts().getFirst();
        int far = Math.multiplyExact(ATTENTION_CALIBRATION_CONTEXT_FACTOR, context);
        KernelLaunch launch = sweep.launches().getFirst();
        // the attention alone at the longer context, when its caches fit; else attention keeps one efficiency
        boolean fits = attentionFits(shape, batch, far);
        DecodeCalibration.AttentionPoint attention =
                fits ? attentionPoint(model, shape, results, batch, far, launch) : null;
        // and, fitted at one sequence, at more sequences a step: at two contexts each, neither of which a sweep
        // usually holds out (2x and 16x the calibration context), the longer one shortened until its caches fit
        List<DecodeCalibration.AttentionAtBatch> atBatches = new ArrayList<>();
        if (fits && batch == 1) {
            int near = Math.multiplyExact(2, context);
            for (int b : ATTENTION_CALIBRATION_BATCHES) {
                int longer = far;
                while (longer > 2 * near && !attentionFits(shape, b, longer)) {
                    longer /= 2;
                }
                if (attentionFits(shape, b, longer)) {
                    atBatches.add(new DecodeCalibration.AttentionAtBatch(
                            b,
                            attentionPoint(model, shape, results, b, near, launch),
                            attentionPoint(model, shape, results, b, longer, launch)));
                }
            }
        }
        Calibration calibration = DecodeCalibration.fit(
                fittedTo,
                attention,
                results.ceilings(),
                results.device(),
                LocalDate.now(),
                command + " " + model.name() + " batch " + batch + " context " + context + " "
                        + launch.name().toLowerCase(Locale.ROOT) + " launches, "
                        + fittedTo.stream().map(r -> r.config().format().name()).toList()
                        + (fits ? "; attention alone at context " + far : "")
                        + atBatches.stream()
                                .map(a -> a.sequences() + " x " + a.near().context() + "/"
                                        + a.far().context())
                                .reduce((x, y) -> x + ", " + y)
                                .map(t -> "; attention alone at batch x contexts " + t)
                                .orElse("")
                        + (rowScaling(shape, batch)
                                ? "; products timed at 1 and " + GemvRowScaling.ROWS + " rows"
                                : ""));
        if (!atBatches.isEmpty()) {
            calibration = DecodeCalibration.withAttentionAt(
                    calibration,
                    atBatches,
                    shape.kvHeads(),
                    DecoderOperator.ATTENTION.launches(shape.layers()),
                    shape.layers());
        }
        if (rowScaling(shape, batch)) {
            // what one row's fit cannot know: how the products slow down with rows (GemvRowScaling)
            calibration = GemvRowScaling.apply(
                    calibration,
                    GemvRowScaling.measure(
                            Cuda.device(0),
                            shape,
                            fittedTo.stream()
                                    .map(r -> r.config().format())
                                    .distinct()
                                    .toList(),
                            BenchmarkOptions.defaults().withRepetitions(20),
                            calibration.launchSeconds()));
        }
        return new Fitted(calibration, fittedTo);
    }

    /** Whether the KV caches of an attention timed alone at {@code batch} x {@code context} fit in free memory. */
    private static boolean attentionFits(DecoderShape shape, int batch, int context) {
        return DecodeStepBenchmark.kvBytes(shape, batch, context) + (256L << 20) < Cuda.freeMemoryBytes();
    }

    /** The step's attention timed alone at {@code batch} x {@code context}, beside its roofline time. */
    private static DecodeCalibration.AttentionPoint attentionPoint(
            Model model,
            DecoderShape shape,
            DecodeStepBenchmark.Results results,
            int batch,
            int context,
            KernelLaunch launch) {
        return new DecodeCalibration.AttentionPoint(
                context,
                DecodeStepBenchmark.attentionSeconds(Cuda.device(0), shape, batch, context, launch),
                Transformer.of(model, results.ceilings().applyTo(Cuda.device(0).hardware()))
                        .predict(DecodeStepBenchmark.workload(WeightFormat.FP16, batch, context))
                        .operator("attention")
                        .timeSeconds());
    }

    /**
     * Whether a fit also times the products at several rows ({@link GemvRowScaling}): for a dense model fitted at one
     * row, whose efficiencies the row classes divide.
     */
    private static boolean rowScaling(DecoderShape shape, int batch) {
        return !shape.hasExperts() && batch == 1;
    }

    private static Calibration readCalibration(Path file) {
        try {
            return Calibration.read(file);
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new UsageException("--calibration: " + e.getMessage());
        }
    }

    private static DecodeStepBenchmark.Sweep sweep(Arguments args) {
        return new DecodeStepBenchmark.Sweep(
                args.get(WEIGHTS), args.get(KV), args.get(BATCH), args.get(CONTEXT), args.get(LAUNCH));
    }
}
