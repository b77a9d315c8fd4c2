package dev.roofline.quant.block;

import dev.roofline.core.format.E8M0;
import dev.roofline.core.format.MiniFloat;
import dev.roofline.core.format.ScaleTiles;
import dev.roofline.core.precision.Precision;

/**
 * An OCP MX v1.0 tensor: one E8M0 scale per 32 consecutive elements of a row (a partial last block keeps its own
 * scale) and the elements in the format's element encoding, one code per byte (FP4 codes in the low nibble).
 * Use {@link #packedFp4()} for the two-per-byte MXFP4 storage.
 */
public record MxTensor(Precision precision, int rows, int cols, byte[] codes, byte[] scales)
        implements QuantizedTensor {
    public static final int BLOCK = 32;

    public MxTensor {
        if (!precision.name().startsWith("MX")) {
            throw new IllegalArgumentException("precision must be an MX format, got " + precision);
        }
        int blocksPerRow = Math.ceilDiv(cols, BLOCK);
        if (codes.length != (long) rows * cols || scales.length != (long) rows * blocksPerRow) {
            throw new IllegalArgumentException(
                    precision + " " + rows + " x " + cols + " needs " + (long) rows * cols + " codes and "
                            + (long) rows * blocksPerRow + " scales, got " + codes.length + " and " + scales.length);
        }
    }

    public int blocksPerRow() {
        return Math.ceilDiv(cols, BLOCK);
    }

    @Override
    public float[] dequantize() {
        MiniFloat f = precision == Precision.MXINT8 ? null : MiniFloat.of(precision);
        float[] out = new float[codes.length];
        int bpr = blocksPerRow();
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                int i = r * cols + c;
                double scale = E8M0.decode(scales[r * bpr + c / BLOCK] & 0xFF);
                double e = f == null ? (byte) codes[i] / 64.0 : f.decode(codes[i] & 0xFF);
                out[i] = (float) (e * scale);
            }
        }
        return out;
    }

    /** MXFP4 codes two per byte, element 2i in the low nibble (the layout of PyTorch's float4_e2m1fn_x2). */
    public byte[] packedFp4() {
        if (precision != Precision.MXFP4) {
            throw new IllegalStateException("packedFp4 is for MXFP4, this tensor is " + precision);
        }
        byte[] out = new byte[Math.ceilDiv(codes.length, 2)];
        for (int i = 0; i < codes.length; i++) {
            out[i >>> 1] |= (byte) ((codes[i] & 0xF) << ((i & 1) * 4));
        }
        return out;
    }

    @Override
    public long storageBytes() {
        return precision.storageBytes(rows, cols);
    }

    /**
     * The E8M0 scales in the tiled layout cuBLASLt's block-scaled matmul reads for MX operands ({@link ScaleTiles}),
     * for this tensor as an operand whose K runs along its columns.
     */
    public byte[] tiledScales() {
        return ScaleTiles.of(rows, blocksPerRow()).tile(scales);
    }
}
