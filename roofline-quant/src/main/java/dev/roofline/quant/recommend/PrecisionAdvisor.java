package dev.roofline.quant.recommend;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.core.transformer.Workload;
import dev.roofline.quant.block.ErrorMetrics;
import dev.roofline.quant.block.QuantizedTensor;
import dev.roofline.quant.block.Quantizers;
import dev.roofline.quant.checkpoint.LinearSelector;
import dev.roofline.quant.checkpoint.QuantTarget;
import dev.roofline.quant.safetensors.ShardedCheckpoint;
import dev.roofline.quant.safetensors.TensorInfo;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Accuracy-aware precision choice: for each linear layer, quantize its actual weights in every candidate format,
 * measure the error, predict the layer's GEMM time on a GPU for a workload with roofline-core, and keep the fastest
 * format whose SQNR reaches the budget.
 *
 * <pre>{@code
 * PrecisionAdvisor advisor = PrecisionAdvisor.on(Hardware.GB10, Workload.decode(1, 4096)).minimumSqnrDb(20);
 * LayerChoice c = advisor.choose("mlp.down_proj.weight", weights, 4096, 14336);
 * }</pre>
 *
 * Only formats {@code quantize} writes ({@link #WRITABLE}: the precisions of {@link QuantTarget}) are candidates, so
 * every recommendation can be applied; other formats can be measured beside them for comparison
 * ({@link #compareWith}) and are never chosen. For a whole checkpoint, which {@code quantize} writes in one format,
 * the advisor picks one format for every layer that meets the budget and keeps the others as they are (what
 * {@code quantize --exclude} does). Activations stay FP16 (weight-only quantization: the error measured is the
 * weights'); the GEMM's arithmetic runs on whatever path the GPU has for the pair, as {@link Hardware#computePath}
 * decides.
 */
public final class PrecisionAdvisor {

    /** The weight formats {@code quantize} can write, from the most to the fewest bits. */
    public static final List<Precision> WRITABLE = Arrays.stream(QuantTarget.values())
            .map(QuantTarget::precision)
            .distinct()
            .sorted(Comparator.comparingDouble(Precision::effectiveBitsPerElement)
                    .reversed())
            .toList();

    private final Hardware hardware;
    private final Workload workload;
    private final double minimumSqnrDb;
    private final List<Precision> candidates;
    private final List<Precision> compared;

    private PrecisionAdvisor(
            Hardware hardware,
            Workload workload,
            double minimumSqnrDb,
            List<Precision> candidates,
            List<Precision> compared) {
        this.hardware = hardware;
        this.workload = workload;
        this.minimumSqnrDb = minimumSqnrDb;
        this.candidates = candidates;
        this.compared = compared;
    }

    /** Default budget 20 dB; candidates: every format {@code quantize} writes ({@link #WRITABLE}). */
    public static PrecisionAdvisor on(Hardware hardware, Workload workload) {
        if (hardware == null || workload == null) {
            throw new IllegalArgumentException("hardware and workload must not be null");
        }
        return new PrecisionAdvisor(hardware, workload, 20, WRITABLE, List.of());
    }

    public PrecisionAdvisor minimumSqnrDb(double db) {
        if (!Double.isFinite(db)) {
            throw new IllegalArgumentException("minimumSqnrDb must be finite, got " + db);
        }
        return new PrecisionAdvisor(hardware, workload, db, candidates, compared);
    }

    /**
     * The formats a layer may be given, each one {@code quantize} writes.
     *
     * @throws IllegalArgumentException naming a format {@code quantize} cannot write, with the ones it can
     */
    public PrecisionAdvisor candidates(List<Precision> formats) {
        if (formats == null || formats.isEmpty()) {
            throw new IllegalArgumentException("candidates must name at least one format");
        }
        for (Precision p : formats) {
            if (p == null || !Quantizers.SUPPORTED.contains(p)) {
                throw new IllegalArgumentException(
                        "no weight quantizer for candidate " + p + "; supported: " + names(Quantizers.SUPPORTED));
            }
            if (!WRITABLE.contains(p)) {
                throw new IllegalArgumentException(unwritable(p));
            }
        }
        return new PrecisionAdvisor(hardware, workload, minimumSqnrDb, List.copyOf(formats), compared);
    }

    /**
     * Formats measured and priced beside the candidates for comparison only: they appear in
     * {@link LayerChoice#measured()} and are never chosen.
     *
     * @throws IllegalArgumentException naming a format no weight quantizer supports
     */
    public PrecisionAdvisor compareWith(List<Precision> formats) {
        if (formats == null) {
            throw new IllegalArgumentException("formats to compare with must not be null");
        }
        for (Precision p : formats) {
            if (p == null || !Quantizers.SUPPORTED.contains(p)) {
                throw new IllegalArgumentException(
                        "no weight quantizer for " + p + "; supported: " + names(Quantizers.SUPPORTED));
            }
        }
        return new PrecisionAdvisor(hardware, workload, minimumSqnrDb, candidates, List.copyOf(formats));
    }

    public double minimumSqnrDb() {
        return minimumSqnrDb;
    }

    /** Measures every candidate on {@code w} (rows = N outputs, cols = K inputs) and picks one. */
    public LayerChoice choose(String layer, float[] w, int rows, int cols) {
        return decide(measure(layer, w, rows, cols), candidates);
    }

    /**
     * Chooses formats for every linear weight of a checkpoint, reading one tensor at a time (memory bounded by the
     * largest weight): one format, the candidate that makes all layers together fastest, for every layer it suits
     * (budget met, faster than FP16); the other layers stay as they are. {@code progress} gets one line per layer.
     */
    public List<LayerChoice> choose(ShardedCheckpoint checkpoint, LinearSelector selector, Consumer<String> progress)
            throws IOException {
        List<Measurement> layers = new ArrayList<>();
        for (String name : checkpoint.names()) {
            TensorInfo t = checkpoint.tensor(name);
            if (!selector.quantizes(t)) {
                continue;
            }
            int rows = Math.toIntExact(t.shape().get(0));
            int cols = Math.toIntExact(t.shape().get(1));
            layers.add(measure(name, checkpoint.fileOf(name).floats(name), rows, cols));
        }
        Precision format = null;
        double best = Double.POSITIVE_INFINITY;
        for (Precision p : candidates) {
            double total = 0;
            for (Measurement m : layers) {
                total += decide(m, List.of(p)).timeMicros();
            }
            if (total < best) { // candidates run from the most bits down: a tie keeps the more accurate format
                best = total;
                format = p;
            }
        }
        List<LayerChoice> choices = new ArrayList<>();
        for (Measurement m : layers) {
            LayerChoice c = decide(m, format == null ? List.of() : List.of(format));
            progress.accept(String.format(Locale.ROOT, "%s [%d, %d]: %s", m.layer, m.rows, m.cols, c.reason()));
            choices.add(c);
        }
        return choices;
    }

    /** One layer's FP16 time and every candidate's and compared format's error and time. */
    private record Measurement(String layer, int rows, int cols, double fp16Micros, List<FormatError> measured) {}

    private Measurement measure(String layer, float[] w, int rows, int cols) {
        Roofline roofline = Roofline.on(hardware);
        Gemm gemm = new Gemm(layer, 1, workload.tokens(), rows, cols, Precision.FP16, Precision.FP16, Precision.FP16);
        double fp16 = roofline.predict(gemm).timeMicros();
        List<FormatError> measured = new ArrayList<>();
        List<Precision> formats = new ArrayList<>(candidates);
        compared.stream().filter(p -> !formats.contains(p)).forEach(formats::add);
        for (Precision p : formats) {
            if (!Quantizers.fits(p, cols)) {
                continue;
            }
            QuantizedTensor q = Quantizers.quantize(p, w, rows, cols);
            ErrorMetrics e = ErrorMetrics.of(w, q.dequantize());
            // priced as stored: INT4 with its group scales (INT4_G128) where the quantizer wrote groups of 128
            measured.add(new FormatError(
                    p, e, roofline.predict(gemm.withWeights(q.precision())).timeMicros()));
        }
        return new Measurement(layer, rows, cols, fp16, measured);
    }

    /** The fastest of {@code allowed} that meets the budget and beats FP16, or FP16 with the reason. */
    private LayerChoice decide(Measurement m, List<Precision> allowed) {
        double fp16 = m.fp16Micros;
        FormatError best = m.measured.stream()
                .filter(f -> allowed.contains(f.format()) && f.error().sqnrDb() >= minimumSqnrDb)
                .min(Comparator.comparingDouble(FormatError::timeMicros)
                        .thenComparing(f -> -f.error().sqnrDb()))
                .orElse(null);
        if (best == null || best.timeMicros() >= fp16) {
            String why = best == null
                    ? String.format(
                            Locale.ROOT,
                            "no candidate reached %.1f dB SQNR (best %.1f dB among %s), so the layer stays FP16.",
                            minimumSqnrDb,
                            m.measured.stream()
                                    .filter(f -> allowed.contains(f.format()))
                                    .mapToDouble(f -> f.error().sqnrDb())
                                    .max()
                                    .orElse(Double.NaN),
                            allowed.isEmpty() ? "no format" : names(allowed))
                    : "no candidate is predicted faster than FP16 here, so the layer stays FP16.";
            return new LayerChoice(
                    m.layer, m.rows, m.cols, Precision.FP16, Double.POSITIVE_INFINITY, fp16, fp16, m.measured, why);
        }
        String why = String.format(
                Locale.ROOT,
                "%s is the fastest format at or above %.1f dB (%.1f dB measured), "
                        + "predicted %.2fx faster than FP16 on %s.",
                best.format().displayName(),
                minimumSqnrDb,
                best.error().sqnrDb(),
                fp16 / best.timeMicros(),
                hardware.name());
        return new LayerChoice(
                m.layer,
                m.rows,
                m.cols,
                best.format(),
                best.error().sqnrDb(),
                best.timeMicros(),
                fp16,
                m.measured,
                why);
    }

    /** Why {@code p} cannot be a candidate, naming the formats that can. */
    public static String unwritable(Precision p) {
        return "candidate " + p + " cannot be recommended: quantize does not write it; it writes " + names(WRITABLE)
                + " (measure other formats beside them for comparison)";
    }

    private static String names(List<Precision> formats) {
        return String.join(", ", formats.stream().map(Precision::displayName).toList());
    }

    /** A Markdown table of choices, with the total predicted time of the layers. */
    public static String table(List<LayerChoice> choices) {
        StringBuilder sb = new StringBuilder(
                "| layer | N x K | format | SQNR dB | time us | vs FP16 |\n|---|---|---|---:|---:|---:|\n");
        double total = 0, totalFp16 = 0;
        for (LayerChoice c : choices) {
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %d x %d | %s | %s | %.2f | %.2fx |%n",
                    c.layer(),
                    c.rows(),
                    c.cols(),
                    c.chosen().displayName(),
                    Double.isInfinite(c.sqnrDb()) ? "ref" : String.format(Locale.ROOT, "%.1f", c.sqnrDb()),
                    c.timeMicros(),
                    c.speedupVsFp16()));
            total += c.timeMicros();
            totalFp16 += c.fp16TimeMicros();
        }
        sb.append(String.format(Locale.ROOT, "| **all layers** | | | | %.2f | %.2fx |%n", total, totalFp16 / total));
        return sb.toString();
    }
}
