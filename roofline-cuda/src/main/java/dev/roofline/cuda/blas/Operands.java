package dev.roofline.cuda.blas;

import dev.roofline.cuda.DeviceBuffer;

import java.util.Objects;

/**
 * The device buffers of one matrix product: weights (N×K row-major), activations (M×K row-major), output (M×N
 * row-major) and, for FP8, per-tensor FP32 scales (each a 4-byte device buffer; {@code outputScale} only applies to an
 * FP8 output). Scales may be null for non-FP8 products.
 */
public record Operands(
        DeviceBuffer weights,
        DeviceBuffer activations,
        DeviceBuffer output,
        DeviceBuffer weightScale,
        DeviceBuffer activationScale,
        DeviceBuffer outputScale) {

    public Operands {
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(activations, "activations");
        Objects.requireNonNull(output, "output");
    }

    public static Operands of(DeviceBuffer weights, DeviceBuffer activations, DeviceBuffer output) {
        return new Operands(weights, activations, output, null, null, null);
    }

    public Operands withScales(DeviceBuffer weightScale, DeviceBuffer activationScale, DeviceBuffer outputScale) {
        return new Operands(weights, activations, output, weightScale, activationScale, outputScale);
    }
}
