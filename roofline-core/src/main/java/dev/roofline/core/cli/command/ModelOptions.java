package dev.roofline.core.cli.command;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Converters;
import dev.roofline.core.cli.Option;
import dev.roofline.core.cli.UsageException;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.ConfigJson;
import dev.roofline.core.model.MixtureOfExperts;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.report.ChartPoint;
import dev.roofline.core.transformer.Phase;
import dev.roofline.core.transformer.Workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The options {@code model}, {@code recommend}, {@code plot} and {@code report} share (each command reads the ones it needs), and
 * their values once parsed.
 *
 * @param calibration measurements to price with, or null for the datasheet roofline
 */
record ModelOptions(
        Model model,
        Hardware hardware,
        Workload workload,
        String format,
        List<Precision> allowed,
        Path out,
        List<Precision> ceilings,
        List<ChartPoint> measured,
        Calibration calibration,
        Map<String, Double> measuredSeconds,
        boolean bothPhases) {

    static final Option<Hardware> HW = Option.of("--hw", "NAME", "hardware", "gb10", Converters.hardware());
    static final Option<Phase> PHASE = Option.of(
            "--phase",
            "P",
            "decode or prefill",
            "decode",
            (o, v) -> Phase.valueOf(
                    Converters.oneOf("decode", "prefill").convert(o, v).toUpperCase(Locale.ROOT)));
    static final Option<Long> BATCH = Option.of("--batch", "B", "sequences", "1", Converters.positiveLong());
    static final Option<Long> CONTEXT = Option.of(
            "--context",
            "S",
            "tokens in the KV cache (decode) or prompt tokens (prefill)",
            "4096",
            Converters.positiveLong());
    static final Option<Precision> WEIGHTS =
            Option.of("--weights", "P", "weight precision", "fp16", Converters.precision());
    static final Option<Precision> EXPERT_WEIGHTS = Option.of(
            "--expert-weights",
            "P",
            "routed experts' precision (default: --weights; for gpt-oss without --weights, its released MXFP4 experts"
                    + " beside BF16)",
            null,
            Converters.precision());
    static final Option<Precision> ACTIVATIONS =
            Option.of("--activations", "P", "activation precision", "fp16", Converters.precision());
    static final Option<Precision> KV = Option.of("--kv", "P", "KV-cache precision", "fp16", Converters.precision());
    static final Option<Boolean> NO_FLASH = Option.flag("--no-flash", "materialise the S x S attention scores");
    static final Option<String> FORMAT = Option.of(
            "--format", "F", "model: text, markdown or csv", "text", Converters.oneOf("text", "markdown", "csv"));
    static final Option<List<Precision>> ALLOW = Option.of(
            "--allow",
            "P,P,...",
            "recommend: formats the caller accepts (default: all)",
            null,
            Converters.precisions());
    static final Option<Path> OUT = Option.of(
            "--out",
            "FILE",
            "plot: SVG file, report: HTML file to write (default: standard output)",
            null,
            Converters.path());
    static final Option<List<Precision>> CEILINGS = Option.of(
            "--precisions",
            "P,...",
            "plot, report: ceilings to draw (default: those the GPU runs among fp16, fp8, nvfp4)",
            null,
            Converters.precisions());
    static final Option<ChartPoint> MEASURED = Option.of(
                    "--measured",
                    "L:AI:TF",
                    "plot, report: a measured point (label, FLOP/byte, TFLOPS)",
                    null,
                    ModelOptions::measured)
            .repeated();

    static final Option<Calibration> CALIBRATION = Option.of(
            "--calibration",
            "FILE",
            "a GPU run's measurements (calibration JSON) to price with instead of the datasheet",
            null,
            ModelOptions::calibration);

    static final Option<Map<String, Double>> MEASURED_TIMES = Option.of(
            "--measured-times",
            "FILE",
            "report: a CSV of measured operator times (columns operator and measured_us, the operator names as model"
                    + " --format csv prints them, every repetition of a step summed): hollow markers beside the points",
            null,
            ModelOptions::measuredTimes);
    static final Option<Boolean> BOTH_PHASES =
            Option.flag("--both-phases", "report: prefill and decode side by side (--context: prompt and cache)");

    static final List<Option<?>> ALL = List.of(
            HW,
            PHASE,
            BATCH,
            CONTEXT,
            WEIGHTS,
            EXPERT_WEIGHTS,
            ACTIVATIONS,
            KV,
            NO_FLASH,
            FORMAT,
            ALLOW,
            OUT,
            CEILINGS,
            MEASURED,
            CALIBRATION,
            MEASURED_TIMES,
            BOTH_PHASES);

    static ModelOptions from(String command, Arguments args) {
        List<String> operands = args.operands(
                1, command + " needs a model: a preset (" + Models.knownNames() + ") or a config.json path");
        Model model = model(operands.getFirst());
        if (args.has(EXPERT_WEIGHTS) && !(model.feedForward() instanceof MixtureOfExperts)) {
            throw new UsageException("--expert-weights: " + model.name() + " has no routed experts");
        }
        // a checkpoint released with its experts apart is priced as released where the caller names no precision
        Optional<Models.Released> released = released(operands.getFirst(), model);
        Precision weights = args.has(WEIGHTS)
                ? args.get(WEIGHTS)
                : released.map(Models.Released::weights).orElse(args.get(WEIGHTS));
        Precision experts = args.has(EXPERT_WEIGHTS)
                ? args.get(EXPERT_WEIGHTS)
                : args.has(WEIGHTS)
                        ? weights
                        : released.map(Models.Released::experts).orElse(weights);
        Workload wl = new Workload(
                        args.get(PHASE),
                        args.get(BATCH),
                        args.get(CONTEXT),
                        weights,
                        args.get(ACTIVATIONS),
                        args.get(KV),
                        !args.has(NO_FLASH))
                .withExpertWeights(experts);
        return new ModelOptions(
                model,
                args.get(HW),
                wl,
                args.get(FORMAT),
                args.find(ALLOW).orElse(null),
                args.find(OUT).orElse(null),
                args.find(CEILINGS).orElse(null),
                args.all(MEASURED),
                args.find(CALIBRATION).orElse(null),
                args.find(MEASURED_TIMES).orElse(Map.of()),
                args.has(BOTH_PHASES));
    }

    /** The ceilings a chart draws by default: those {@code hw} runs among FP16, FP8 E4M3 and NVFP4. */
    static List<Precision> defaultCeilings(Hardware hw) {
        List<Precision> ceilings = new ArrayList<>();
        for (Precision p : new Precision[] {Precision.FP16, Precision.FP8_E4M3, Precision.NVFP4}) {
            if (hw.runsNatively(p)) {
                ceilings.add(p);
            }
        }
        return ceilings;
    }

    /** A config.json path (reading it is a data error when it fails) or a preset name (a usage error when unknown). */
    static Model model(String v) {
        Path p = Path.of(v);
        if (v.endsWith(".json") || Files.isRegularFile(p)) {
            if (!Files.isRegularFile(p)) {
                throw new IllegalArgumentException("model config '" + v + "' does not exist");
            }
            return ConfigJson.read(p);
        }
        try {
            return Models.byName(v);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** The released precisions of a preset, or of a config.json's checkpoint ({@link Models#released}). */
    private static Optional<Models.Released> released(String v, Model model) {
        Path p = Path.of(v);
        return v.endsWith(".json") || Files.isRegularFile(p)
                ? Models.released(ConfigJson.readConfig(p))
                : Models.released(model);
    }

    /** A calibration file; one that is missing, unreadable or invalid is a usage error naming it. */
    private static Calibration calibration(String option, String v) {
        Path p = Path.of(v);
        if (!Files.isRegularFile(p)) {
            throw new IllegalArgumentException(option + ": calibration file '" + v + "' does not exist");
        }
        try {
            return Calibration.read(p);
        } catch (UncheckedIOException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
        }
    }

    /**
     * A CSV whose header names an {@code operator} and a {@code measured_us} column (others are ignored): operator name
     * to measured seconds. RFC 4180 cells (quoted or not), a leading byte-order mark and CRLF line ends are read; every
     * row has as many cells as the header; an operator named twice is refused. Names are checked against the prediction
     * where they are drawn.
     */
    private static Map<String, Double> measuredTimes(String option, String v) {
        Path p = Path.of(v);
        List<String> lines;
        try {
            lines = Files.readAllLines(p);
        } catch (IOException e) {
            throw new IllegalArgumentException(option + ": cannot read '" + v + "': " + e.getMessage(), e);
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(option + ": '" + v + "' is empty");
        }
        List<String> header = cells(lines.getFirst().replaceFirst("^\uFEFF", "")).stream()
                .map(String::strip)
                .toList();
        int name = header.indexOf("operator");
        int micros = header.indexOf("measured_us");
        if (name < 0 || micros < 0) {
            throw new IllegalArgumentException(
                    option + ": '" + v + "' needs columns operator and measured_us, its header is " + header);
        }
        Map<String, Double> seconds = new HashMap<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            String where = option + ": line " + (i + 1) + " of '" + v + "'";
            List<String> cells = cells(lines.get(i));
            if (cells.size() != header.size()) {
                throw new IllegalArgumentException(
                        where + " has " + cells.size() + " cells, its header " + header.size());
            }
            double us;
            try {
                us = Double.parseDouble(cells.get(micros).strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        where + ": measured_us '" + cells.get(micros).strip() + "' is not a number");
            }
            if (!(us > 0) || Double.isInfinite(us)) {
                throw new IllegalArgumentException(where + ": measured_us must be > 0, got " + us);
            }
            String operator = cells.get(name).strip();
            if (seconds.put(operator, us * 1e-6) != null) {
                throw new IllegalArgumentException(where + ": operator " + operator + " is given twice");
            }
        }
        return Map.copyOf(seconds);
    }

    /** One CSV line's cells, RFC 4180: a cell in double quotes may hold commas, and "" stands for one quote. */
    static List<String> cells(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cell.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString());
        return cells;
    }

    /** LABEL:FLOP_PER_BYTE:TFLOPS, e.g. "gemv:0.98:0.25". */
    private static ChartPoint measured(String option, String v) {
        String[] parts = v.split(":");
        if (parts.length != 3) {
            throw new IllegalArgumentException(option + " expects LABEL:FLOP_PER_BYTE:TFLOPS, got '" + v + "'");
        }
        try {
            return new ChartPoint(parts[0], Double.parseDouble(parts[1]), Double.parseDouble(parts[2]) * 1e12, true);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " numbers must be decimal, got '" + v + "'");
        }
    }
}
