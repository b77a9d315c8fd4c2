package dev.roofline.cuda.cli;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.cuda.bench.Column;
import dev.roofline.cuda.bench.Sweep;
import dev.roofline.cuda.bench.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One product {@code roofline measure} predicts: the GEMM as the sweep runs it (its output precision from
 * {@link Sweep#gemmFor}) and its roofline prediction. {@link #TABLE} is how the command prints the predictions and,
 * without a GPU, writes them with {@code --csv}: one definition for both.
 *
 * @param gemm       the product: weights and activations in one precision, and its output precision
 * @param prediction its roofline prediction on the hardware asked for
 */
record PredictedProduct(Gemm gemm, Prediction prediction) {

    /** Text shows the product and shape in one column each; CSV gives precisions and dimensions a column each. */
    static final Table<PredictedProduct> TABLE = Table.of(List.of(
            Column.text(
                    "product",
                    null,
                    r -> r.gemm().weights().displayName() + " -> "
                            + r.gemm().output().displayName()),
            Column.text(null, "precision", r -> r.gemm().weights().displayName()),
            Column.text(null, "output", r -> r.gemm().output().displayName()),
            Column.text(
                    "shape MxNxK",
                    null,
                    r -> r.gemm().m() + "x" + r.gemm().n() + "x" + r.gemm().k()),
            Column.number(null, "m", "%d", "%d", r -> r.gemm().m()),
            Column.number(null, "n", "%d", "%d", r -> r.gemm().n()),
            Column.number(null, "k", "%d", "%d", r -> r.gemm().k()),
            Column.number("predicted us", "predicted_us", "%.2f", "%.3f", r -> r.prediction()
                    .timeMicros()),
            Column.number(
                    "TFLOPS", "tflops", "%.1f", "%.3f", r -> r.prediction().attainableFlopsPerSecond() / 1e12),
            Column.text("bound", "bound", r -> r.prediction().bound().name().toLowerCase(Locale.ROOT))));

    /** Every shape in every precision, in that order, predicted on {@code hw}. */
    static List<PredictedProduct> sweep(Hardware hw, List<Gemm> shapes, List<Precision> precisions) {
        Roofline roofline = Roofline.on(hw);
        List<PredictedProduct> rows = new ArrayList<>();
        for (Gemm shape : shapes) {
            for (Precision p : precisions) {
                Gemm g = Sweep.gemmFor(shape, p);
                rows.add(new PredictedProduct(g, roofline.predict(g)));
            }
        }
        return List.copyOf(rows);
    }
}
