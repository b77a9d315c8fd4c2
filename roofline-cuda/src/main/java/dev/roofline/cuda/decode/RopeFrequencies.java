package dev.roofline.cuda.decode;

/**
 * The inverse frequencies of rotary position embedding, {@code inv_freq[i] = theta^(-2i/d)} for {@code i < d/2}, with
 * Llama 3's long-context scaling when asked: Hugging Face transformers' {@code _compute_llama3_parameters} (wavelengths
 * shorter than {@code original / high} kept, longer than {@code original / low} divided by {@code factor}, a linear
 * blend of the two between).
 */
public final class RopeFrequencies {
    private RopeFrequencies() {}

    /**
     * Plain RoPE.
     *
     * @throws IllegalArgumentException for an odd or non-positive {@code headDim} or a {@code theta} not above 1
     */
    public static double[] of(int headDim, double theta) {
        if (headDim <= 0 || headDim % 2 != 0) {
            throw new IllegalArgumentException("head_dim must be positive and even, got " + headDim);
        }
        if (!(theta > 1) || Double.isInfinite(theta)) {
            throw new IllegalArgumentException("rope_theta must be finite and above 1, got " + theta);
        }
        double[] f = new double[headDim / 2];
        for (int i = 0; i < f.length; i++) {
            f[i] = Math.pow(theta, -2.0 * i / headDim);
        }
        return f;
    }

    /**
     * Llama 3's scaled RoPE ({@code rope_scaling.rope_type = "llama3"}; Llama 3.1 uses factor 8, low 1, high 4,
     * original 8192).
     *
     * @throws IllegalArgumentException for a factor below 1, {@code high <= low}, or a non-positive original context
     */
    public static double[] llama3(
            int headDim, double theta, double factor, double lowFreqFactor, double highFreqFactor, int original) {
        if (!(factor >= 1) || !(lowFreqFactor > 0) || !(highFreqFactor > lowFreqFactor) || original <= 0) {
            throw new IllegalArgumentException("llama3 rope_scaling needs factor >= 1, 0 < low_freq_factor < "
                    + "high_freq_factor and original_max_position_embeddings > 0, got factor " + factor + ", low "
                    + lowFreqFactor + ", high " + highFreqFactor + ", original " + original);
        }
        double[] f = of(headDim, theta);
        double lowWavelength = original / lowFreqFactor;
        double highWavelength = original / highFreqFactor;
        for (int i = 0; i < f.length; i++) {
            double wavelength = 2 * Math.PI / f[i];
            if (wavelength > lowWavelength) {
                f[i] /= factor;
            } else if (wavelength >= highWavelength) {
                double smooth = (original / wavelength - lowFreqFactor) / (highFreqFactor - lowFreqFactor);
                f[i] = (1 - smooth) * f[i] / factor + smooth * f[i];
            }
        }
        return f;
    }
}
