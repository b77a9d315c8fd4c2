package dev.roofline.quant.block;

import dev.roofline.core.format.E2M1;
import dev.roofline.core.format.MiniFloat;
import dev.roofline.core.format.ScaleTiles;
import dev.roofline.core.precision.Precision;

/**
 * NVFP4 as NVIDIA ModelOpt stores a linear weight: {@code weight} U8 [rows, cols/2] (element 2i in the low nibble),
 * {@code weight_scale} FP8 E4M3 [rows, cols/16], {@code weight_scale_2} FP32 scalar. A value is
 * e2m1(code) × e4m3(blockScale) × globalScale.
 *
 * @param packed      two E2M1 codes per byte, row-major
 * @param blockScales one E4M3 code per 16 elements, row-major
 * @param globalScale ModelOpt's {@code weight_scale_2} = amax / (6 · 448)
 */
public record Nvfp4Tensor(int rows, int cols, byte[] packed, byte[] blockScales, float globalScale)
        implements QuantizedTensor {
    public static final int BLOCK = 16;
    static final MiniFloat E4M3 = MiniFloat.of(Precision.FP8_E4M3);

    public Nvfp4Tensor {
        if (rows <= 0 || cols <= 0 || cols % BLOCK != 0) {
            throw new IllegalArgumentException(
                    "NVFP4 needs rows > 0 and cols a multiple of 16, got " + rows + " x " + cols);
        }
        if (packed.length != (long) rows * cols / 2 || blockScales.length != (long) rows * cols / BLOCK) {
            throw new IllegalArgumentException("NVFP4 " + rows + " x " + cols + " needs " + (long) rows * cols / 2
                    + " packed bytes and " + (long) rows * cols / BLOCK + " scales, got " + packed.length + " and "
                    + blockScales.length);
        }
    }

    @Override
    public Precision precision() {
        return Precision.NVFP4;
    }

    /** The code of element {@code i} (row-major). */
    public int code(long i) {
        int b = packed[(int) (i >>> 1)] & 0xFF;
        return (i & 1) == 0 ? b & 0xF : b >>> 4;
    }

    /** The reciprocal global scale, as compressed-tensors stores it ({@code weight_global_scale}). */
    public float reciprocalGlobalScale() {
        return 1f / globalScale;
    }

    @Override
    public float[] dequantize() {
        float[] out = new float[rows * cols];
        for (int i = 0; i < out.length; i++) {
            float blockScale = (float) E4M3.decode(blockScales[i / BLOCK] & 0xFF);
            out[i] = E2M1.decode(code(i)) * (blockScale * globalScale);
        }
        return out;
    }

    @Override
    public long storageBytes() {
        return Precision.NVFP4.storageBytes(rows, cols);
    }

    /**
     * The block scales in the tiled layout cuBLASLt's block-scaled matmul and Blackwell's FP4 tensor cores read
     * ({@link ScaleTiles}: 128 × 4 tiles, rows padded to 128 and scale columns to 4 with zeros), for this tensor as an
     * operand whose rows are its rows and whose K runs along its columns.
     */
    public byte[] tiledBlockScales() {
        return ScaleTiles.of(rows, cols / BLOCK).tile(blockScales);
    }
}
