package dev.roofline.cuda.blas;

import dev.roofline.core.roofline.Gemm;

/**
 * Row-major {@code C[M×N] = A[M×K] · B[N×K]ᵀ} in cuBLASLt's column-major terms: the weights (N×K, K contiguous)
 * are cuBLASLt's A, a K×N column-major matrix used transposed; the activations (M×K) are its B, K×M, not transposed;
 * the output is N×M column-major, i.e. M×N row-major. This "TN" form is the one FP8 and INT8 kernels require.
 *
 * @param aRows K, {@code aCols} N, {@code lda} K (weights)
 * @param bRows K, {@code bCols} M, {@code ldb} K (activations)
 * @param cRows N, {@code cCols} M, {@code ldc} N (output)
 */
record MatrixLayouts(
        long aRows, long aCols, long lda, long bRows, long bCols, long ldb, long cRows, long cCols, long ldc) {

    static MatrixLayouts of(Gemm g) {
        if (g.batch() != 1) {
            throw new IllegalArgumentException("batched matmul is not supported yet, got batch=" + g.batch());
        }
        return new MatrixLayouts(g.k(), g.n(), g.k(), g.k(), g.m(), g.k(), g.n(), g.m(), g.n());
    }
}
