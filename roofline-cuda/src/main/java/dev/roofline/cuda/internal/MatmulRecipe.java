package dev.roofline.cuda.internal;

import dev.roofline.bindings.cublaslt.cublaslt_h;
import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;

import java.util.Set;

/**
 * How cuBLASLt runs a {@link Gemm} of given precisions: compute type, scale type and the {@code cudaDataType} of
 * A (weights), B (activations), C and D (output), plus what the GPU must support. INT8 products write INT32, which
 * {@link Precision} has no constant for: such a Gemm states {@link Precision#FP32} as its output (same 4 bytes).
 *
 * @param label            e.g. "FP8 E4M3 x E5M2 -> BF16"
 * @param computeType      {@code cublasComputeType_t}
 * @param scaleType        {@code cudaDataType} of alpha and beta
 * @param aType            weights
 * @param bType            activations
 * @param cType            C (beta is 0, but its type must be given)
 * @param dType            D, the output
 * @param perTensorScales  FP8: A/B (and, for FP8 output, D) scale pointers apply
 * @param blockScaleMode   {@code cublasLtMatmulMatrixScale_t} of A and B for block-scaled formats, or -1
 * @param minimum          the compute capability needed
 */
public record MatmulRecipe(
        String label,
        int computeType,
        int scaleType,
        int aType,
        int bType,
        int cType,
        int dType,
        boolean perTensorScales,
        int blockScaleMode,
        ComputeCapability minimum) {

    public static final ComputeCapability ANY = new ComputeCapability(7, 0);
    public static final ComputeCapability FP8 = new ComputeCapability(8, 9);
    public static final ComputeCapability BLOCK_SCALED = new ComputeCapability(10, 0);

    private static final Set<Precision> FP8_OUTPUTS =
            Set.of(Precision.FP16, Precision.BF16, Precision.FP32, Precision.FP8_E4M3);

    /**
     * The recipe for {@code g}.
     *
     * @throws IllegalArgumentException for precisions or outputs cuBLASLt cannot multiply
     */
    public static MatmulRecipe of(Gemm g) {
        Precision w = g.weights();
        Precision a = g.activations();
        Precision out = g.output();
        String label =
                (w == a ? w.displayName() : w.displayName() + " x " + a.displayName()) + " -> " + out.displayName();
        int f32 = cublaslt_h.CUDA_R_32F();
        if (w == a) {
            switch (w) {
                case FP32 -> {
                    return floats(label, out, Set.of(Precision.FP32), cublaslt_h.CUBLAS_COMPUTE_32F(), f32);
                }
                case TF32 -> {
                    return floats(label, out, Set.of(Precision.FP32), cublaslt_h.CUBLAS_COMPUTE_32F_FAST_TF32(), f32);
                }
                case FP16 -> {
                    return floats(
                            label,
                            out,
                            Set.of(Precision.FP16, Precision.FP32),
                            cublaslt_h.CUBLAS_COMPUTE_32F(),
                            cublaslt_h.CUDA_R_16F());
                }
                case BF16 -> {
                    return floats(
                            label,
                            out,
                            Set.of(Precision.BF16, Precision.FP32),
                            cublaslt_h.CUBLAS_COMPUTE_32F(),
                            cublaslt_h.CUDA_R_16BF());
                }
                case INT8 -> {
                    requireOutput(label, out, Set.of(Precision.FP32), "INT32 (stated as FP32, same size)");
                    int i32 = cublaslt_h.CUDA_R_32I();
                    int i8 = cublaslt_h.CUDA_R_8I();
                    return new MatmulRecipe(
                            label.replace("-> FP32", "-> INT32"),
                            cublaslt_h.CUBLAS_COMPUTE_32I(),
                            i32,
                            i8,
                            i8,
                            i32,
                            i32,
                            false,
                            -1,
                            ANY);
                }
                case NVFP4 -> {
                    return blockScaled(
                            label,
                            out,
                            cublaslt_h.CUDA_R_4F_E2M1(),
                            cublaslt_h.CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3());
                }
                case MXFP8_E4M3 -> {
                    return blockScaled(
                            label,
                            out,
                            cublaslt_h.CUDA_R_8F_E4M3(),
                            cublaslt_h.CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0());
                }
                default -> {
                    // FP8 and the unsupported rest are handled below
                }
            }
        }
        if (isFp8(w) && isFp8(a) && !(w == Precision.FP8_E5M2 && a == Precision.FP8_E5M2)) {
            requireOutput(label, out, FP8_OUTPUTS, "FP16, BF16, FP32 or FP8 E4M3");
            int d = dataType(out);
            int c = out == Precision.FP8_E4M3 ? cublaslt_h.CUDA_R_16F() : d;
            return new MatmulRecipe(
                    label, cublaslt_h.CUBLAS_COMPUTE_32F(), f32, dataType(w), dataType(a), c, d, true, -1, FP8);
        }
        throw new IllegalArgumentException(
                "cuBLASLt has no matmul for " + label + "; supported: FP32, TF32, FP16, BF16, "
                        + "INT8 (INT32 out), FP8 E4M3 x E4M3 / E4M3 x E5M2 / E5M2 x E4M3, and on compute capability >= 10.0 "
                        + "NVFP4 and MXFP8 E4M3");
    }

    private static MatmulRecipe floats(String label, Precision out, Set<Precision> outputs, int compute, int operand) {
        requireOutput(label, out, outputs, outputs.toString());
        int d = dataType(out);
        return new MatmulRecipe(label, compute, cublaslt_h.CUDA_R_32F(), operand, operand, d, d, false, -1, ANY);
    }

    private static MatmulRecipe blockScaled(String label, Precision out, int operand, int scaleMode) {
        requireOutput(label, out, Set.of(Precision.FP16, Precision.BF16, Precision.FP32), "FP16, BF16 or FP32");
        int d = dataType(out);
        return new MatmulRecipe(
                label,
                cublaslt_h.CUBLAS_COMPUTE_32F(),
                cublaslt_h.CUDA_R_32F(),
                operand,
                operand,
                d,
                d,
                false,
                scaleMode,
                BLOCK_SCALED);
    }

    private static void requireOutput(String label, Precision out, Set<Precision> allowed, String what) {
        if (!allowed.contains(out)) {
            throw new IllegalArgumentException(
                    "output " + out.displayName() + " is not supported for " + label + "; use " + what);
        }
    }

    public static boolean isFp8(Precision p) {
        return p == Precision.FP8_E4M3 || p == Precision.FP8_E5M2;
    }

    /** True when A and B hold 8-bit elements, whose leading dimensions cuBLASLt wants 16-byte aligned. */
    public boolean eightBitOperands() {
        return aType == cublaslt_h.CUDA_R_8F_E4M3()
                || aType == cublaslt_h.CUDA_R_8F_E5M2()
                || aType == cublaslt_h.CUDA_R_8I();
    }

    /** True when alpha and beta are INT32 (INT8 products), else FP32. */
    public boolean integerScale() {
        return scaleType == cublaslt_h.CUDA_R_32I();
    }

    static int dataType(Precision p) {
        return switch (p) {
            case FP32, TF32 -> cublaslt_h.CUDA_R_32F();
            case FP16 -> cublaslt_h.CUDA_R_16F();
            case BF16 -> cublaslt_h.CUDA_R_16BF();
            case FP8_E4M3, MXFP8_E4M3 -> cublaslt_h.CUDA_R_8F_E4M3();
            case FP8_E5M2, MXFP8_E5M2 -> cublaslt_h.CUDA_R_8F_E5M2();
            case INT8 -> cublaslt_h.CUDA_R_8I();
            case NVFP4 -> cublaslt_h.CUDA_R_4F_E2M1();
            default -> throw new IllegalArgumentException("no cudaDataType for " + p.displayName());
        };
    }
}
