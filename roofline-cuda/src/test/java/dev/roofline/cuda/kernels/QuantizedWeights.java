package dev.roofline.cuda.kernels;

import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.blas.ElementCodec;
import dev.roofline.quant.block.Fp8Tensor;
import dev.roofline.quant.block.Int4Tensor;
import dev.roofline.quant.block.Int8Tensor;
import dev.roofline.quant.block.MxQuantizer;
import dev.roofline.quant.block.MxTensor;
import dev.roofline.quant.block.Nf4Tensor;
import dev.roofline.quant.block.Nvfp4Quantizer;
import dev.roofline.quant.block.Nvfp4Tensor;
import dev.roofline.quant.block.QuantizedTensor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * roofline-quant's CPU tensors as the GEMV kernels read them, byte for byte, plus the values they stand for.
 *
 * @param values what the bytes decode to, row-major (the CPU reference multiplies these)
 */
public record QuantizedWeights(
        WeightFormat format, int rows, int cols, byte[] weights, byte[] scales, float globalScale, float[] values) {

    /** Quantizes {@code w[rows×cols]} on the CPU the way the format's producers do (ModelOpt, OCP MX, per channel). */
    public static QuantizedWeights quantize(WeightFormat f, float[] w, int rows, int cols) {
        return switch (f) {
            case FP16, BF16 -> {
                byte[] bytes = ElementCodec.encode(f.precision(), w);
                double[] decoded = ElementCodec.decode(f.precision(), bytes);
                float[] values = new float[decoded.length];
                for (int i = 0; i < values.length; i++) {
                    values[i] = (float) decoded[i];
                }
                yield new QuantizedWeights(f, rows, cols, bytes, null, 1f, values);
            }
            case FP8_E4M3 -> of(Fp8Tensor.quantize(Precision.FP8_E4M3, w, rows, cols, true));
            case INT8 -> of(Int8Tensor.quantizePerChannel(w, rows, cols));
            case INT4 -> of(Int4Tensor.quantize(w, rows, cols, 128, true));
            case NVFP4 -> of(Nvfp4Quantizer.modelOpt().quantize(w, rows, cols));
            case MXFP4 -> of(MxQuantizer.quantize(Precision.MXFP4, w, rows, cols));
        };
    }

    /** The kernel format and bytes of a quantized tensor; a layout no kernel reads is an error naming what is needed. */
    static QuantizedWeights of(QuantizedTensor t) {
        float[] v = t.dequantize();
        return switch (t) {
            case Nvfp4Tensor n ->
                new QuantizedWeights(
                        WeightFormat.NVFP4, n.rows(), n.cols(), n.packed(), n.blockScales(), n.globalScale(), v);
            case MxTensor mx
            when mx.precision() == Precision.MXFP4 && mx.cols() % MxTensor.BLOCK == 0 ->
                new QuantizedWeights(WeightFormat.MXFP4, mx.rows(), mx.cols(), mx.packedFp4(), mx.scales(), 1f, v);
            case Int8Tensor i ->
                new QuantizedWeights(WeightFormat.INT8, i.rows(), i.cols(), i.values(), floats(i.scales()), 1f, v);
            case Int4Tensor i
            when i.zeros() == null && i.groupSize() == 128 ->
                new QuantizedWeights(WeightFormat.INT4, i.rows(), i.cols(), i.packed(), floats(i.scales()), 1f, v);
            case Fp8Tensor f8
            when f8.precision() == Precision.FP8_E4M3 && f8.scales().length == f8.rows() ->
                new QuantizedWeights(
                        WeightFormat.FP8_E4M3, f8.rows(), f8.cols(), f8.codes(), floats(f8.scales()), 1f, v);
            case MxTensor mx -> throw unsupported(mx, "MXFP4 with cols a multiple of 32");
            case Int4Tensor i -> throw unsupported(i, "symmetric INT4 with group 128");
            case Fp8Tensor f8 -> throw unsupported(f8, "FP8 E4M3 with per-channel scales");
            case Nf4Tensor nf -> throw unsupported(nf, "a format other than NF4");
        };
    }

    public DeviceWeights upload() {
        return DeviceWeights.upload(format, rows, cols, weights, scales, globalScale);
    }

    /** {@link DeviceWeights#uploadForGemv}: tiled where the format and shape allow. */
    public DeviceWeights uploadForGemv() {
        return DeviceWeights.uploadForGemv(format, rows, cols, weights, scales, globalScale);
    }

    private static IllegalArgumentException unsupported(QuantizedTensor t, String need) {
        return new IllegalArgumentException("no GEMV kernel reads " + t.precision() + " " + t.rows() + " x " + t.cols()
                + " in this layout; the kernels need " + need);
    }

    private static byte[] floats(float[] values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(values);
        return b.array();
    }
}
