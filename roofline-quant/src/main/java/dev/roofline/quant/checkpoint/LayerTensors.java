package dev.roofline.quant.checkpoint;

import dev.roofline.quant.block.Fp8Tensor;
import dev.roofline.quant.block.Nvfp4Tensor;
import dev.roofline.quant.block.QuantizedTensor;
import dev.roofline.quant.safetensors.Dtype;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/** The tensors one quantized linear weight becomes, named and shaped as each {@link QuantTarget} expects. */
final class LayerTensors {
    private LayerTensors() {}

    enum Part {
        ELEMENTS,
        BLOCK_SCALES,
        GLOBAL_SCALE,
        RECIPROCAL_GLOBAL_SCALE,
        SCALES
    }

    record Output(String name, Dtype dtype, List<Long> shape, Part part) {}

    static List<Output> of(QuantTarget target, String module, long rows, long cols) {
        return switch (target) {
            case NVFP4_MODELOPT ->
                List.of(
                        new Output(module + ".weight", Dtype.U8, List.of(rows, cols / 2), Part.ELEMENTS),
                        new Output(
                                module + ".weight_scale", Dtype.F8_E4M3, List.of(rows, cols / 16), Part.BLOCK_SCALES),
                        new Output(module + ".weight_scale_2", Dtype.F32, List.of(), Part.GLOBAL_SCALE));
            case NVFP4_COMPRESSED_TENSORS ->
                List.of(
                        new Output(module + ".weight_packed", Dtype.U8, List.of(rows, cols / 2), Part.ELEMENTS),
                        new Output(
                                module + ".weight_scale", Dtype.F8_E4M3, List.of(rows, cols / 16), Part.BLOCK_SCALES),
                        new Output(
                                module + ".weight_global_scale", Dtype.F32, List.of(1L), Part.RECIPROCAL_GLOBAL_SCALE));
            case FP8_PER_TENSOR ->
                List.of(
                        new Output(module + ".weight", Dtype.F8_E4M3, List.of(rows, cols), Part.ELEMENTS),
                        new Output(module + ".weight_scale", Dtype.F32, List.of(), Part.SCALES));
            case FP8_PER_CHANNEL ->
                List.of(
                        new Output(module + ".weight", Dtype.F8_E4M3, List.of(rows, cols), Part.ELEMENTS),
                        new Output(module + ".weight_scale", Dtype.F32, List.of(rows, 1L), Part.SCALES));
        };
    }

    /** The little-endian bytes of {@code part} of {@code q}. */
    static byte[] bytes(QuantizedTensor q, Part part) {
        return switch (q) {
            case Nvfp4Tensor t ->
                switch (part) {
                    case ELEMENTS -> t.packed();
                    case BLOCK_SCALES -> t.blockScales();
                    case GLOBAL_SCALE -> floats(t.globalScale());
                    case RECIPROCAL_GLOBAL_SCALE -> floats(t.reciprocalGlobalScale());
                    case SCALES -> throw new IllegalArgumentException("NVFP4 has no " + part);
                };
            case Fp8Tensor t ->
                switch (part) {
                    case ELEMENTS -> t.codes();
                    case SCALES -> floats(t.scales());
                    default -> throw new IllegalArgumentException("FP8 has no " + part);
                };
            default -> throw new IllegalArgumentException("checkpoints are not written for " + q.precision());
        };
    }

    private static byte[] floats(float... values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putFloat(v);
        }
        return b.array();
    }
}
