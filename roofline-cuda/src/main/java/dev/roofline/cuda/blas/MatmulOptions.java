package dev.roofline.cuda.blas;

/**
 * How a {@link Matmul} is planned.
 *
 * @param workspaceBytes   workspace the heuristic may use (default 32 MiB)
 * @param algorithms       how many heuristic candidates to ask for; the first is used unless another is selected
 * @param fastAccumulation FP8 only: accumulate in the tensor core's reduced precision (faster, less accurate)
 */
public record MatmulOptions(long workspaceBytes, int algorithms, boolean fastAccumulation) {
    public static final long DEFAULT_WORKSPACE = 32L << 20;

    public MatmulOptions {
        if (workspaceBytes < 0) {
            throw new IllegalArgumentException("workspaceBytes must be >= 0, got " + workspaceBytes);
        }
        if (algorithms < 1 || algorithms > 64) {
            throw new IllegalArgumentException("algorithms must be in [1, 64], got " + algorithms);
        }
    }

    public static MatmulOptions defaults() {
        return new MatmulOptions(DEFAULT_WORKSPACE, 1, false);
    }

    public MatmulOptions withAlgorithms(int n) {
        return new MatmulOptions(workspaceBytes, n, fastAccumulation);
    }

    public MatmulOptions withFastAccumulation(boolean on) {
        return new MatmulOptions(workspaceBytes, algorithms, on);
    }
}
