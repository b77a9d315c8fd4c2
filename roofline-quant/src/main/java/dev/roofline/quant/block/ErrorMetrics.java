package dev.roofline.quant.block;

/**
 * How far a quantized tensor is from the original.
 *
 * @param mse         mean squared error
 * @param sqnrDb      signal-to-quantization-noise ratio, 10·log10(Σx² / Σ(x−y)²); +∞ when exact
 * @param maxAbsError largest |x − y|
 * @param cosine      cosine similarity of x and y (1 when either is all zero and both are equal)
 */
public record ErrorMetrics(double mse, double sqnrDb, double maxAbsError, double cosine) {

    public static ErrorMetrics of(float[] reference, float[] approximation) {
        if (reference == null || approximation == null) {
            throw new IllegalArgumentException("reference and approximation must not be null");
        }
        if (reference.length != approximation.length || reference.length == 0) {
            throw new IllegalArgumentException("reference and approximation must have the same non-zero length, got "
                    + reference.length + " and " + approximation.length);
        }
        double signal = 0, noise = 0, maxAbs = 0, dot = 0, approxEnergy = 0;
        for (int i = 0; i < reference.length; i++) {
            double x = reference[i];
            double y = approximation[i];
            double d = x - y;
            signal += x * x;
            noise += d * d;
            approxEnergy += y * y;
            dot += x * y;
            maxAbs = Math.max(maxAbs, Math.abs(d));
        }
        double sqnr = noise == 0 ? Double.POSITIVE_INFINITY : 10 * Math.log10(signal / noise);
        double cosine =
                signal == 0 || approxEnergy == 0 ? (noise == 0 ? 1 : 0) : dot / Math.sqrt(signal * approxEnergy);
        return new ErrorMetrics(noise / reference.length, sqnr, maxAbs, cosine);
    }
}
