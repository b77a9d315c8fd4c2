package dev.roofline.cuda.bench;

import java.util.List;

/**
 * The linear layers of one decoder layer in one format, summed: measured medians and both predictions.
 *
 * @param label              the weight format, e.g. "NVFP4"
 * @param measuredMicros     sum of the medians
 * @param predictedMicros    sum of the predictions on measured ceilings (bandwidth and kernel latency)
 * @param datasheetMicros    sum of the predictions on datasheet ceilings
 */
public record LayerTotal(String label, double measuredMicros, double predictedMicros, double datasheetMicros) {

    /**
     * The sum over {@code linears}, all of one format (their label), each with its datasheet prediction.
     *
     * @throws IllegalArgumentException when empty, of several labels, or a datasheet prediction is missing
     */
    public static LayerTotal of(List<Measurement> linears) {
        if (linears.isEmpty()) {
            throw new IllegalArgumentException("a layer total needs at least one linear");
        }
        String label = linears.getFirst().label();
        double measured = 0, predicted = 0, datasheet = 0;
        for (Measurement m : linears) {
            if (!m.label().equals(label) || m.datasheet().isEmpty()) {
                throw new IllegalArgumentException(
                        "a layer total needs linears of one format with datasheet predictions, got " + m.label() + " "
                                + m.operator().name() + " beside " + label);
            }
            measured += m.time().medianMicros();
            predicted += m.prediction().timeMicros();
            datasheet += m.datasheet().get().timeMicros();
        }
        return new LayerTotal(label, measured, predicted, datasheet);
    }

    /** (measured / predicted on measured ceilings - 1) x 100. */
    public double errorPercent() {
        return (measuredMicros / predictedMicros - 1) * 100;
    }
}
