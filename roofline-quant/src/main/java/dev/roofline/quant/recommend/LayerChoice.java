package dev.roofline.quant.recommend;

import dev.roofline.core.precision.Precision;

import java.util.List;

/**
 * The format chosen for one linear layer.
 *
 * @param layer          tensor name, e.g. "model.layers.0.mlp.down_proj.weight"
 * @param rows           N (outputs)
 * @param cols           K (inputs)
 * @param chosen         the fastest format whose SQNR met the budget (FP16 when none did)
 * @param sqnrDb         the chosen format's measured SQNR (+∞ for FP16)
 * @param timeMicros     predicted GEMM time with the chosen format
 * @param fp16TimeMicros predicted GEMM time in FP16
 * @param measured       every candidate, as measured
 * @param reason         one sentence
 */
public record LayerChoice(
        String layer,
        int rows,
        int cols,
        Precision chosen,
        double sqnrDb,
        double timeMicros,
        double fp16TimeMicros,
        List<FormatError> measured,
        String reason) {

    public LayerChoice {
        measured = List.copyOf(measured);
    }

    public double speedupVsFp16() {
        return fp16TimeMicros / timeMicros;
    }
}
