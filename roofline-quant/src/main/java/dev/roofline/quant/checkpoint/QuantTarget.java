package dev.roofline.quant.checkpoint;

import dev.roofline.core.precision.Precision;

/** The checkpoint layouts {@link CheckpointQuantizer} writes. */
public enum QuantTarget {
    /**
     * NVIDIA ModelOpt NVFP4: {@code weight} U8 [N, K/2], {@code weight_scale} F8_E4M3 [N, K/16], {@code weight_scale_2}
     * F32 scalar, plus {@code hf_quant_config.json}.
     */
    NVFP4_MODELOPT(Precision.NVFP4),
    /**
     * compressed-tensors "nvfp4-pack-quantized": {@code weight_packed} U8 [N, K/2], {@code weight_scale} F8_E4M3
     * [N, K/16], {@code weight_global_scale} F32 [1] = 1 / ModelOpt's {@code weight_scale_2}.
     */
    NVFP4_COMPRESSED_TENSORS(Precision.NVFP4),
    /** {@code weight} F8_E4M3 [N, K], {@code weight_scale} F32 scalar (quant_method "fp8", dynamic activations). */
    FP8_PER_TENSOR(Precision.FP8_E4M3),
    /** compressed-tensors "float-quantized": {@code weight} F8_E4M3 [N, K], {@code weight_scale} F32 [N, 1]. */
    FP8_PER_CHANNEL(Precision.FP8_E4M3);

    private final Precision precision;

    QuantTarget(Precision precision) {
        this.precision = precision;
    }

    public Precision precision() {
        return precision;
    }
}
