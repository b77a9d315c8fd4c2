package dev.roofline.cuda.decode;

/** {@link ReferenceDecoder}'s mixture of experts once the tokens are routed, in double. */
final class ReferenceMixture {
    private ReferenceMixture() {}

    /**
     * The weighted sum of each token's chosen experts' SwiGLU outputs on {@code normed} ({@code batch × hidden}):
     * {@code delta[b] = Σ_j weights[b][j] · down_e(silu(gate_e · x_b) · (up_e · x_b))}, e = {@code ids[b][j]}.
     */
    static double[] delta(
            double[] normed,
            ReferenceDecoder.Experts w,
            ExpertRouting.Routing routing,
            ReferenceDecoder.Config config,
            int batch) {
        int h = config.hidden();
        int inter = config.intermediate();
        int k = config.topK();
        double[] delta = new double[batch * h];
        for (int b = 0; b < batch; b++) {
            for (int j = 0; j < k; j++) {
                int e = routing.ids()[b * k + j];
                double[] gateUp = rows(normed, b * h, w.gateUp(), (long) e * 2 * inter, 2 * inter, h);
                double[] act = DecodeReference.siluMul(gateUp, 1, inter);
                double[] out = rows(act, 0, w.down(), (long) e * h, h, inter);
                for (int i = 0; i < h; i++) {
                    delta[b * h + i] += routing.weights()[b * k + j] * out[i];
                }
            }
        }
        return delta;
    }

    /** {@code x[from .. from + in) · w[row .. row + out)ᵀ} for one row of {@code in} features. */
    private static double[] rows(double[] x, int from, double[] w, long row, int out, int in) {
        double[] y = new double[out];
        for (int n = 0; n < out; n++) {
            long base = (row + n) * in;
            double s = 0;
            for (int i = 0; i < in; i++) {
                s += x[from + i] * w[(int) (base + i)];
            }
            y[n] = s;
        }
        return y;
    }
}
