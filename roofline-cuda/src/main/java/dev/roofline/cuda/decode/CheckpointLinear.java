package dev.roofline.cuda.decode;

import dev.roofline.cuda.kernels.WeightFormat;
import dev.roofline.quant.safetensors.Dtype;
import dev.roofline.quant.safetensors.TensorInfo;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;

/**
 * One linear layer of a safetensors checkpoint (module {@code model.layers.0.self_attn.q_proj}, say) as
 * {@link HostWeights}, its bytes as stored, in one of the layouts {@link CheckpointWeights} lists, told apart by the
 * tensors present ({@code weight_packed}; else {@code weight}'s dtype). Anything else is an
 * {@link UnloadableTensorException} naming the tensor and the need.
 */
final class CheckpointLinear {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final CheckpointTensors tensors;
    private final String module;
    private final int rows;
    private final int cols;

    private CheckpointLinear(CheckpointTensors tensors, String module, int rows, int cols) {
        this.tensors = tensors;
        this.module = module;
        this.rows = rows;
        this.cols = cols;
    }

    /** Module {@code module} of the checkpoint, which the decoder needs as a {@code rows × cols} matrix. */
    static HostWeights read(CheckpointTensors tensors, String module, int rows, int cols) throws IOException {
        return new CheckpointLinear(tensors, module, rows, cols).read();
    }

    private HostWeights read() throws IOException {
        String weight = module + ".weight";
        if (tensors.contains(module + ".weight_packed")) {
            return nvfp4(tensors.tensor(module + ".weight_packed", "NVFP4 elements"), "weight_global_scale", true);
        }
        if (!tensors.contains(weight)) {
            throw tensors.missing(
                    weight,
                    tensors.contains(module + ".qweight")
                            ? "the checkpoint holds GPTQ/AWQ packing (qweight, qzeros, scales), which no GEMV kernel"
                                    + " reads"
                            : matrix(),
                    module);
        }
        TensorInfo w = tensors.tensor(weight, matrix());
        return switch (w.dtype()) {
            case F16 -> dense(w, WeightFormat.FP16);
            case BF16 -> dense(w, WeightFormat.BF16);
            case U8 -> nvfp4ModelOpt(w);
            case F8_E4M3 -> fp8(w);
            default ->
                throw tensors.refuse(
                        weight,
                        "is " + w.dtype() + "; the decoder takes linear weights as stored in F16, BF16, NVFP4"
                                + " (ModelOpt or compressed-tensors) or FP8 E4M3 with per-tensor or per-channel scales"
                                + (w.dtype() == Dtype.F32 ? " (convert an F32 checkpoint to BF16 first)" : ""));
        };
    }

    private HostWeights dense(TensorInfo w, WeightFormat f) throws IOException {
        requireK(w.name(), f);
        tensors.require(w.name(), List.of(w.dtype()), List.of((long) rows, (long) cols), matrix());
        return HostWeights.of(f, rows, cols, tensors.bytes(w), null, 1f);
    }

    private HostWeights nvfp4ModelOpt(TensorInfo w) throws IOException {
        String state = tensors.namesStartingWith(w.name() + ".");
        if (!state.equals("[]")) {
            throw tensors.refuse(
                    w.name(),
                    "comes with bitsandbytes quantization state " + state + ": NF4 and FP4 with absmax blocks are"
                            + " no GEMV format");
        }
        if (!tensors.contains(module + ".weight_scale")) {
            throw tensors.refuse(
                    w.name(),
                    "is U8 without NVFP4's weight_scale and weight_scale_2 (ModelOpt layout); " + module + " has "
                            + tensors.namesStartingWith(module + "."));
        }
        return nvfp4(w, "weight_scale_2", false);
    }

    /** NVFP4 elements {@code w} and block scales, the global scale from {@code globalName} (its reciprocal or not). */
    private HostWeights nvfp4(TensorInfo w, String globalName, boolean reciprocal) throws IOException {
        requireK(w.name(), WeightFormat.NVFP4);
        tensors.require(
                w.name(),
                List.of(Dtype.U8),
                List.of((long) rows, cols / 2L),
                "NVFP4 elements, two E2M1 codes a byte, of " + matrix());
        TensorInfo scales = tensors.require(
                module + ".weight_scale",
                List.of(Dtype.F8_E4M3),
                List.of((long) rows, cols / 16L),
                "NVFP4 block scales, one E4M3 per 16 columns, of " + matrix());
        String name = module + "." + globalName;
        float stored = tensors.scalar(name, "NVFP4's per-tensor scale");
        float global = reciprocal ? 1f / stored : stored;
        if (!Float.isFinite(global) || global == 0) {
            throw tensors.refuse(
                    name, "is " + stored + ": NVFP4's per-tensor scale must give a finite, nonzero multiplier");
        }
        return HostWeights.of(WeightFormat.NVFP4, rows, cols, tensors.bytes(w), tensors.bytes(scales), global);
    }

    private HostWeights fp8(TensorInfo w) throws IOException {
        requireK(w.name(), WeightFormat.FP8_E4M3);
        tensors.require(w.name(), List.of(Dtype.F8_E4M3), List.of((long) rows, (long) cols), matrix());
        if (tensors.contains(module + ".weight_scale_inv")) {
            throw tensors.refuse(
                    module + ".weight_scale_inv",
                    "holds block-wise FP8 scales (one per block of rows and columns): the FP8 GEMV takes one scale"
                            + " per output channel");
        }
        String name = module + ".weight_scale";
        TensorInfo s = tensors.tensor(name, "the FP8 weight's scales, per tensor or per output channel");
        if (s.dtype() != Dtype.F32 && s.dtype() != Dtype.F16 && s.dtype() != Dtype.BF16) {
            throw tensors.refuse(name, "is " + s.dtype() + "; FP8 scales must be F32, F16 or BF16");
        }
        List<Long> shape = s.shape();
        boolean perTensor = s.elementCount() == 1 && shape.size() <= 2;
        boolean perChannel = shape.equals(List.of((long) rows)) || shape.equals(List.of((long) rows, 1L));
        if (!perTensor && !perChannel) {
            throw tensors.refuse(
                    name,
                    "is " + shape + ": "
                            + (shape.size() == 2 && shape.get(1) > 1 ? "block-wise FP8 scales, but the" : "the")
                            + " FP8 GEMV takes one scale per tensor ([] or [1]) or per output channel ([" + rows
                            + "] or [" + rows + ", 1])");
        }
        float[] values = tensors.floats(s); // F16 and BF16 widen to F32 exactly
        for (float v : values) {
            if (!Float.isFinite(v)) {
                throw tensors.refuse(name, "holds " + v + ": FP8 scales must be finite");
            }
        }
        MemorySegment scales;
        if (perChannel && s.dtype() == Dtype.F32) {
            scales = tensors.bytes(s);
        } else {
            scales = MemorySegment.ofArray(new byte[4 * rows]);
            for (int r = 0; r < rows; r++) {
                scales.set(F32, 4L * r, values[perTensor ? 0 : r]);
            }
        }
        return HostWeights.of(WeightFormat.FP8_E4M3, rows, cols, tensors.bytes(w), scales, 1f);
    }

    private void requireK(String name, WeightFormat f) throws UnloadableTensorException {
        if (cols % f.kMultiple() != 0) {
            throw tensors.refuse(
                    name,
                    "is " + f + ", whose GEMV needs K (columns) a multiple of " + f.kMultiple() + "; the decoder"
                            + " shape gives " + module + " " + cols + " columns");
        }
    }

    private String matrix() {
        return module + " as the decoder shape's " + rows + " x " + cols + " matrix";
    }
}
