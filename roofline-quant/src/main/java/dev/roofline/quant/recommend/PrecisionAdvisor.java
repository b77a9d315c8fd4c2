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
import dev.roofline.quant.safetensors.ShardedCheckpoint;
import dev.roofline.quant.safetensors.TensorInfo;

import java.io.IOException;
import java.util.ArrayList;
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
 * Activations stay FP16 (weight-only quantization: the error measured is the weights'); the GEMM's arithmetic runs
 * on whatever path the GPU has for the pair, as {@link Hardware#computePath} decides.
 */
public final class PrecisionAdvisor {
    private final Hardware hardware;
    private final Workload workload;
    private final double minimumSqnrDb;
    private final List<Precision> candidates;

    private PrecisionAdvisor(Hardware hardware, Workload workload, double minimumSqnrDb, List<Precision> candidates) {
        this.hardware = hardware;
        this.workload = workload;
        this.minimumSqnrDb = minimumSqnrDb;
        this.candidates = candidates;
    }

    /** Default budget 20 dB; candidates: every format {@link Quantizers} supports. */
    public static PrecisionAdvisor on(Hardware hardware, Workload workload) {
        if (hardware == null || workload == null) {
            throw new IllegalArgumentException("hardware and workload must not be null");
        }
        return new PrecisionAdvisor(hardware, workload, 20, Quantizers.SUPPORTED);
    }

    public PrecisionAdvisor minimumSqnrDb(double db) {
        if (!Double.isFinite(db)) {
            throw new IllegalArgumentException("minimumSqnrDb must be finite, got " + db);
        }
        return new PrecisionAdvisor(hardware, workload, db, candidates);
    }

    public PrecisionAdvisor candidates(List<Precision> formats) {
        if (formats == null || formats.isEmpty()) {
            throw new IllegalArgumentException("candidates must name at least one format");
        }
        for (Precision p : formats) {
            if (!Quantizers.SUPPORTED.contains(p)) {
                throw new IllegalArgumentException(
                        "no weight quantizer for candidate " + p + "; supported: " + Quantizers.SUPPORTED);
            }
        }
        return new PrecisionAdvisor(hardware, workload, minimumSqnrDb, List.copyOf(formats));
    }

    public double minimumSqnrDb() {
        return minimumSqnrDb;
    }

    /** Measures every candidate on {@code w} (rows = N outputs, cols = K inputs) and picks one. */
    public LayerChoice choose(String layer, float[] w, int rows, int cols) {
        Roofline roofline = Roofline.on(hardware);
        Gemm gemm = new Gemm(layer, 1, workload.tokens(), rows, cols, Precision.FP16, Precision.FP16, Precision.FP16);
        double fp16 = roofline.predict(gemm).timeMicros();
        List<FormatError> measured = new ArrayList<>();
        for (Precision p : candidates) {
            if (!Quantizers.fits(p, cols)) {
                continue;
            }
            QuantizedTensor q = Quantizers.quantize(p, w, rows, cols);
            ErrorMetrics e = ErrorMetrics.of(w, q.dequantize());
            // priced as stored: INT4 with its group scales (INT4_G128) where the quantizer wrote groups of 128
            measured.add(new FormatError(
                    p, e, roofline.predict(gemm.withWeights(q.precision())).timeMicros()));
        }
        FormatError best = measured.stream()
                .filter(f -> f.error().sqnrDb() >= minimumSqnrDb)
                .min(Comparator.comparingDouble(FormatError::timeMicros)
                        .thenComparing(f -> -f.error().sqnrDb()))
                .orElse(null);
        if (best == null || best.timeMicros() >= fp16) {
            String why = best == null
                    ? String.format(
                            Locale.ROOT,
                            "no candidate reached %.1f dB SQNR (best %.1f dB), so the layer stays FP16.",
                            minimumSqnrDb,
                            measured.stream()
                                    .mapToDouble(f -> f.error().sqnrDb())
                                    .max()
                                    .orElse(Double.NaN))
                    : "no candidate is predicted faster than FP16 here, so the layer stays FP16.";
            return new LayerChoice(
                    layer, rows, cols, Precision.FP16, Double.POSITIVE_INFINITY, fp16, fp16, measured, why);
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
                layer, rows, cols, best.format(), best.error().sqnrDb(), best.timeMicros(), fp16, measured, why);
    }

    /**
     * Chooses a format for every linear weight of a checkpoint, one tensor at a time (memory bounded by the
     * largest weight); {@code progress} gets one line per layer.
     */
    public List<LayerChoice> choose(ShardedCheckpoint checkpoint, LinearSelector selector, Consumer<String> progress)
            throws IOException {
        List<LayerChoice> choices = new ArrayList<>();
        for (String name : checkpoint.names()) {
            TensorInfo t = checkpoint.tensor(name);
            if (!selector.quantizes(t)) {
                continue;
            }
            int rows = Math.toIntExact(t.shape().get(0));
            int cols = Math.toIntExact(t.shape().get(1));
            LayerChoice c = choose(name, checkpoint.fileOf(name).floats(name), rows, cols);
            progress.accept(String.format(Locale.ROOT, "%s [%d, %d]: %s", name, rows, cols, c.reason()));
            choices.add(c);
        }
        return choices;
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
