package dev.roofline.quant.block;

import dev.roofline.core.precision.Precision;

/** A rows × cols weight matrix in a quantized layout that can be turned back into floats. */
public sealed interface QuantizedTensor permits Nvfp4Tensor, MxTensor, Int8Tensor, Int4Tensor, Nf4Tensor, Fp8Tensor {

    Precision precision();

    int rows();

    int cols();

    /** The values this layout represents, row-major. */
    float[] dequantize();

    /** Exact bytes of this layout: elements and every scale (and zero point) it stores. */
    long storageBytes();
}
