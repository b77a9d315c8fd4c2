package dev.roofline.cuda.decode;

/**
 * The operators of one Llama-family decode step in double precision on the CPU, in the layouts the GPU kernels use
 * ({@link dev.roofline.cuda.kernels.DecodeKernels}): the reference their results are checked against, and usable on
 * its own. Arrays are row-major; {@code rows} is the batch.
 */
public final class DecodeReference {
    private DecodeReference() {}

    /** {@code x / sqrt(mean(x^2) + eps) * weight} for each row of {@code x} ({@code rows × hidden}). */
    public static double[] rmsNorm(double[] x, double[] weight, int rows, double eps) {
        int hidden = weight.length;
        requireLength("x", x, (long) rows * hidden);
        double[] out = new double[x.length];
        for (int r = 0; r < rows; r++) {
            double sq = 0;
            for (int i = 0; i < hidden; i++) {
                sq += x[r * hidden + i] * x[r * hidden + i];
            }
            double inv = 1 / Math.sqrt(sq / hidden + eps);
            for (int i = 0; i < hidden; i++) {
                out[r * hidden + i] = x[r * hidden + i] * inv * weight[i];
            }
        }
        return out;
    }

    /**
     * Rotary embedding in place on {@code x} ({@code rows × heads × headDim}) at {@code positions[row]}, "rotate half"
     * layout: element i pairs with i + headDim/2 and turns by {@code positions[row] * invFreq[i]}.
     */
    public static void rope(double[] x, int rows, int heads, int[] positions, double[] invFreq) {
        int half = invFreq.length;
        int d = 2 * half;
        requireLength("x", x, (long) rows * heads * d);
        for (int r = 0; r < rows; r++) {
            for (int h = 0; h < heads; h++) {
                int base = (r * heads + h) * d;
                for (int i = 0; i < half; i++) {
                    double a = positions[r] * invFreq[i];
                    double c = Math.cos(a);
                    double s = Math.sin(a);
                    double x1 = x[base + i];
                    double x2 = x[base + i + half];
                    x[base + i] = x1 * c - x2 * s;
                    x[base + i + half] = x2 * c + x1 * s;
                }
            }
        }
    }

    /**
     * Decode attention: for each row r and head h, softmax over the first {@code lengths[r]} cached tokens of KV head
     * {@code h / (heads / kvHeads)} of {@code q·k / sqrt(headDim)}, weighting the values.
     *
     * @param q      rows × heads × headDim
     * @param kCache rows × kvHeads × capacity × headDim (likewise {@code vCache})
     * @return rows × heads × headDim
     */
    public static double[] attention(
            double[] q,
            double[] kCache,
            double[] vCache,
            int[] lengths,
            int rows,
            int heads,
            int kvHeads,
            int headDim,
            int capacity) {
        requireLength("q", q, (long) rows * heads * headDim);
        requireLength("kCache", kCache, (long) rows * kvHeads * capacity * headDim);
        requireLength("vCache", vCache, (long) rows * kvHeads * capacity * headDim);
        if (heads % kvHeads != 0) {
            throw new IllegalArgumentException("heads (" + heads + ") must be a multiple of kvHeads (" + kvHeads + ")");
        }
        double scale = 1 / Math.sqrt(headDim);
        double[] out = new double[q.length];
        for (int r = 0; r < rows; r++) {
            int n = lengths[r];
            if (n < 1 || n > capacity) {
                throw new IllegalArgumentException("lengths[" + r + "] must be in [1, " + capacity + "], got " + n);
            }
            for (int h = 0; h < heads; h++) {
                int g = h / (heads / kvHeads);
                int qb = (r * heads + h) * headDim;
                long cb = ((long) r * kvHeads + g) * capacity * headDim;
                double[] logits = new double[n];
                double max = Double.NEGATIVE_INFINITY;
                for (int t = 0; t < n; t++) {
                    double dot = 0;
                    for (int i = 0; i < headDim; i++) {
                        dot += q[qb + i] * kCache[(int) (cb + (long) t * headDim + i)];
                    }
                    logits[t] = dot * scale;
                    max = Math.max(max, logits[t]);
                }
                double sum = 0;
                for (int t = 0; t < n; t++) {
                    logits[t] = Math.exp(logits[t] - max);
                    sum += logits[t];
                }
                for (int t = 0; t < n; t++) {
                    double p = logits[t] / sum;
                    for (int i = 0; i < headDim; i++) {
                        out[qb + i] += p * vCache[(int) (cb + (long) t * headDim + i)];
                    }
                }
            }
        }
        return out;
    }

    /** {@code silu(gate) * up} for each row of {@code gateUp} ({@code rows × 2·inter}, gate first): rows × inter. */
    public static double[] siluMul(double[] gateUp, int rows, int inter) {
        requireLength("gateUp", gateUp, 2L * rows * inter);
        double[] out = new double[rows * inter];
        for (int r = 0; r < rows; r++) {
            for (int i = 0; i < inter; i++) {
                double g = gateUp[r * 2 * inter + i];
                out[r * inter + i] = g / (1 + Math.exp(-g)) * gateUp[r * 2 * inter + inter + i];
            }
        }
        return out;
    }

    private static void requireLength(String name, double[] a, long expected) {
        if (a.length != expected) {
            throw new IllegalArgumentException(name + " must hold " + expected + " values, got " + a.length);
        }
    }
}
