package dev.roofline.cuda.kernels;

/** Argument checks for one GEMV launch, apart from the GPU so they can be tested anywhere. */
final class GemvShape {
    private GemvShape() {}

    static void check(
            WeightFormat f,
            int m,
            int n,
            int k,
            long weightBytes,
            long scaleBytes,
            long xBytes,
            long yBytes,
            int activationBytes) {
        if (m < 1 || m > GemvKernels.MAX_ROWS) {
            throw new IllegalArgumentException("M (activation rows) must be 1.." + GemvKernels.MAX_ROWS + ", got " + m);
        }
        if (n < 1) {
            throw new IllegalArgumentException("N (output channels) must be >= 1, got " + n);
        }
        if (k < f.kMultiple() || k % f.kMultiple() != 0) {
            throw new IllegalArgumentException(
                    f + " needs K (inputs) a positive multiple of " + f.kMultiple() + ", got " + k);
        }
        need("weights", weightBytes, f.weightBytes(n, k), f, n, k);
        need("scales", scaleBytes, f.deviceScaleBytes(n, k), f, n, k);
        need("x", xBytes, (long) m * k * activationBytes, f, n, k);
        need("y", yBytes, (long) m * n * activationBytes, f, n, k);
    }

    private static void need(String what, long have, long need, WeightFormat f, int n, int k) {
        if (have < need) {
            String mx = f == WeightFormat.MXFP4 && what.equals("scales")
                    ? " (the N x K/32 scale codes, then each row's largest code: see DeviceWeights.deviceScales)"
                    : "";
            throw new IllegalArgumentException(what + " buffer holds " + have + " bytes, " + f + " GEMV with N=" + n
                    + ", K=" + k + " needs " + need + mx);
        }
    }
}
