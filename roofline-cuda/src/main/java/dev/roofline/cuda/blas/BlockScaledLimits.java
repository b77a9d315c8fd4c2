package dev.roofline.cuda.blas;

import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.cuda.DeviceBuffer;

/**
 * What cuBLASLt's block-scaled matmuls (NVFP4: E2M1 with UE4M3 scales per 16; MXFP8: E4M3 with UE8M0 scales per 32)
 * demand beyond their types, checked before cuBLASLt sees a call, and what it is known not to do on compute capability
 * 12.x (sm_120 GeForce and RTX PRO Blackwell, sm_121 GB10).
 *
 * <p>Met by construction, so not checked here: A transposed and B not ("TN"), which the cuBLAS documentation
 * (cublasLtMatmul, "FP8 and FP4 … on Blackwell GeForce (compute capability 12.x)") demands of FP8 and block-scaled
 * products and every {@link Matmul} uses; {@code CUBLAS_COMPUTE_32F} with FP32 scaling; one scale mode for both
 * operands (VEC16_UE4M3 for FP4, VEC32_UE8M0 for MXFP8; section "Narrow precision data types usage"); FP16, BF16 or
 * FP32 outputs without a D scale, which cuBLAS takes only for FP4 outputs; whole scale blocks along K
 * ({@link Matmul#requireWholeScaleBlocks}).
 *
 * <p>Checked: the scales' start addresses, which "must be 16B aligned" (section "1D block scaling factors layout"):
 * a {@link DeviceBuffer#slice} can start anywhere.
 */
final class BlockScaledLimits {
    /** Alignment of a block-scale buffer's first byte, in bytes. */
    static final int SCALE_ALIGNMENT = 16;

    private BlockScaledLimits() {}

    /**
     * Refuses block scales that start off a 16-byte boundary.
     *
     * @param name the argument, e.g. {@code weightBlockScales}
     */
    static void requireAlignedScales(String name, DeviceBuffer scales) {
        requireAlignedScales(name, scales.pointer().address());
    }

    /** {@link #requireAlignedScales(String, DeviceBuffer)} of a device address. */
    static void requireAlignedScales(String name, long address) {
        if (address % SCALE_ALIGNMENT != 0) {
            throw new IllegalArgumentException(name + ": cuBLASLt needs block scales to start on a " + SCALE_ALIGNMENT
                    + "-byte boundary, got address 0x" + Long.toHexString(address) + " (a slice at an offset that is"
                    + " not a multiple of " + SCALE_ALIGNMENT + ")");
        }
    }

    /**
     * What to add to cuBLASLt's "no algorithm" for a block-scaled product on {@code cc}: on compute capability 12.x
     * the limits reported there, with their sources; empty elsewhere.
     *
     * @param label          the recipe, e.g. "NVFP4 -> BF16"
     * @param cublasLtVersion {@code cublasLtGetVersion()}, e.g. 130100
     */
    static String noAlgorithmNote(ComputeCapability cc, String label, long cublasLtVersion) {
        if (cc.major() != 12) {
            return "";
        }
        return "; " + label + " on compute capability " + cc + " (cuBLASLt " + cublasLtVersion + "): cuBLAS supports"
                + " block-scaled FP8 and FP4 on Blackwell GeForce-class GPUs from CUDA 12.8 Update 1 (CUDA Toolkit"
                + " release notes, cuBLAS: Release 12.8 Update 1); users report MXFP8 products other than TN refused"
                + " before cuBLAS 13.6 (pytorch/pytorch#198126) and TransformerEngine leaves MXFP8 off on 12.0 and up"
                + " (NVIDIA/TransformerEngine#1939): a newer cuBLAS, or NVFP4 in place of MXFP8, may run it";
    }
}
