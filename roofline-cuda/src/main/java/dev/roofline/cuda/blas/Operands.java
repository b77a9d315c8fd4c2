package dev.roofline.cuda.blas;

import dev.roofline.cuda.DeviceBuffer;

import java.util.Objects;

/**
 * The device buffers of one matrix product: weights (N×K row-major), activations (M×K row-major), output (M×N
 * row-major); for FP8, per-tensor FP32 scales (each a 4-byte device buffer; {@code outputScale} only applies to an
 * FP8 output); for the block-scaled formats (NVFP4, MXFP8), each operand's block scales in cuBLASLt's tiled layout
 * ({@link dev.roofline.core.format.ScaleTiles}: {@code Nvfp4Tensor.tiledBlockScales()}, {@code MxTensor.tiledScales()}
 * in roofline-quant) and the product of the operands' tensor scales ({@code tensorScales}: for NVFP4 as ModelOpt stores it, the
 * weight's {@code weight_scale_2} times the activation's {@code input_scale}; 1 for MX), which the product multiplies by. Scales not used by the product may be null.
 */
public record Operands(
        DeviceBuffer weights,
        DeviceBuffer activations,
        DeviceBuffer output,
        DeviceBuffer weightScale,
        DeviceBuffer activationScale,
        DeviceBuffer outputScale,
        DeviceBuffer weightBlockScales,
        DeviceBuffer activationBlockScales,
        float tensorScales) {

    public Operands {
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(activations, "activations");
        Objects.requireNonNull(output, "output");
        if (!(Float.isFinite(tensorScales) && tensorScales != 0)) {
            throw new IllegalArgumentException("tensorScales must be finite and nonzero, got " + tensorScales);
        }
    }

    public static Operands of(DeviceBuffer weights, DeviceBuffer activations, DeviceBuffer output) {
        return new Operands(weights, activations, output, null, null, null, null, null, 1f);
    }

    public Operands withScales(DeviceBuffer weightScale, DeviceBuffer activationScale, DeviceBuffer outputScale) {
        return new Operands(
                weights,
                activations,
                output,
                weightScale,
                activationScale,
                outputScale,
                weightBlockScales,
                activationBlockScales,
                tensorScales);
    }

    /** These operands with block scales (tiled) and the product of the tensor scales, for NVFP4 and MXFP8 products. */
    public Operands withBlockScales(
            DeviceBuffer weightBlockScales, DeviceBuffer activationBlockScales, float tensorScales) {
        return new Operands(
                weights,
                activations,
                output,
                weightScale,
                activationScale,
                outputScale,
                Objects.requireNonNull(weightBlockScales, "weightBlockScales"),
                Objects.requireNonNull(activationBlockScales, "activationBlockScales"),
                tensorScales);
    }
}
