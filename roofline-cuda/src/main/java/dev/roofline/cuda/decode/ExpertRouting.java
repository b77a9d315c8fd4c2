package dev.roofline.cuda.decode;

/**
 * Mixtral's routing rule in double precision on the CPU, the reference for the GPU's top-k kernel
 * ({@link dev.roofline.cuda.kernels.MoeKernels#topK}): per token, the softmax over all experts' logits, the
 * {@code topK} largest probabilities (ties to the lower expert index, a NaN logit below every number), and their
 * weights divided by their sum.
 *
 * <pre>{@code
 * ExpertRouting.Routing r = ExpertRouting.route(new double[] {0, Math.log(2), Math.log(3), Math.log(4)}, 1, 4, 2);
 * // r.ids() = {3, 2}, r.weights() = {4/7, 3/7}
 * }</pre>
 */
public final class ExpertRouting {
    private ExpertRouting() {}

    /**
     * Each token's chosen experts and weights.
     *
     * @param ids     {@code [rows][topK]}, best first
     * @param weights {@code [rows][topK]}, in the order of {@code ids}; each token's sum to 1
     * @param margin  the smallest gap over the tokens between the logit of the last chosen expert and the best logit
     *                left out (0 for a tie; infinite when every expert is chosen): how far the routing is from
     *                flipping under a small change of the logits
     */
    public record Routing(int[] ids, double[] weights, double margin) {}

    /**
     * Routes {@code rows} tokens by their {@code logits} ({@code [rows][experts]}).
     *
     * @throws IllegalArgumentException when {@code logits} is not {@code rows × experts} long or {@code topK} is not
     *     in {@code [1, experts]}
     */
    public static Routing route(double[] logits, int rows, int experts, int topK) {
        if (rows < 1 || experts < 1) {
            throw new IllegalArgumentException("rows and experts must be positive, got " + rows + " and " + experts);
        }
        if (topK < 1 || topK > experts) {
            throw new IllegalArgumentException("topK must be in [1, experts = " + experts + "], got " + topK);
        }
        if (logits == null || logits.length != (long) rows * experts) {
            throw new IllegalArgumentException("logits must hold rows x experts = " + (long) rows * experts
                    + " values, got " + (logits == null ? "null" : logits.length));
        }
        int[] ids = new int[rows * topK];
        double[] weights = new double[rows * topK];
        double margin = Double.POSITIVE_INFINITY;
        for (int r = 0; r < rows; r++) {
            double[] p = softmax(logits, r * experts, experts);
            boolean[] taken = new boolean[experts];
            double sum = 0;
            for (int j = 0; j < topK; j++) {
                // by logit, which orders as the probability does without the ties of probabilities that underflow
                int best = -1;
                for (int e = 0; e < experts; e++) {
                    double l = rank(logits[r * experts + e]);
                    // strictly greater: a tie keeps the lower index
                    if (!taken[e] && (best < 0 || l > rank(logits[r * experts + best]))) {
                        best = e;
                    }
                }
                taken[best] = true;
                ids[r * topK + j] = best;
                weights[r * topK + j] = p[best];
                sum += p[best];
            }
            for (int j = 0; j < topK; j++) {
                weights[r * topK + j] /= sum;
            }
            double last = rank(logits[r * experts + ids[r * topK + topK - 1]]);
            for (int e = 0; e < experts; e++) {
                if (!taken[e]) {
                    margin = Math.min(margin, last - rank(logits[r * experts + e]));
                }
            }
        }
        return new Routing(ids, weights, margin);
    }

    /** The softmax of {@code n} logits from {@code from}, a NaN logit taken as minus infinity (probability 0). */
    private static double[] softmax(double[] logits, int from, int n) {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            max = Math.max(max, rank(logits[from + i]));
        }
        double[] p = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            p[i] = max == Double.NEGATIVE_INFINITY ? 1 : Math.exp(rank(logits[from + i]) - max);
            sum += p[i];
        }
        for (int i = 0; i < n; i++) {
            p[i] /= sum;
        }
        return p;
    }

    private static double rank(double logit) {
        return Double.isNaN(logit) ? Double.NEGATIVE_INFINITY : logit;
    }
}
