package dev.roofline.cuda.blas;

import dev.roofline.core.format.Bf16;
import dev.roofline.core.format.E2M1;
import dev.roofline.core.format.MiniFloat;
import dev.roofline.core.format.Overflow;
import dev.roofline.core.precision.Precision;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Host-side encoding of matrix elements in the layouts cuBLASLt reads (little-endian): FP32/TF32, FP16, BF16, FP8 E4M3
 * and E5M2 (OCP, saturating), INT8, and the elements of the block-scaled formats without their scales — NVFP4 as
 * E2M1 codes two to a byte (element 2i in the low nibble, as cuBLASLt's CUDA_R_4F_E2M1 and ModelOpt store them) and
 * MXFP8 E4M3 as E4M3 codes — whose values are what the GPU multiplies when every block scale is 1; and decoding of
 * those plus INT32 outputs. Rounding is to nearest, ties to even.
 * The element codes come from roofline-core's codecs ({@link dev.roofline.core.format}): FP8 from {@link MiniFloat},
 * BF16 from {@link Bf16}, FP16 from the JDK's IEEE binary16 conversion ({@link Float#floatToFloat16}, which
 * {@code MiniFloat} matches), so these bytes are the ones roofline-quant writes.
 *
 * <pre>{@code
 * byte[] w = ElementCodec.encode(Precision.FP8_E4M3, values);   // 1 byte per value
 * double[] back = ElementCodec.decode(Precision.FP8_E4M3, w);    // exactly what the GPU multiplies
 * }</pre>
 */
public final class ElementCodec {
    private static final MiniFloat E4M3 = MiniFloat.of(Precision.FP8_E4M3);
    private static final MiniFloat E5M2 = MiniFloat.of(Precision.FP8_E5M2);

    /** E2M1's largest magnitude (OCP MX spec). */
    private static final float E2M1_MAX = 6f;

    private ElementCodec() {}

    /** Bits of one element of {@code p} as stored here. */
    public static int bitsPerElement(Precision p) {
        Objects.requireNonNull(p, "precision must not be null");
        return switch (p) {
            case FP32, TF32 -> 32;
            case FP16, BF16 -> 16;
            case FP8_E4M3, FP8_E5M2, INT8, MXFP8_E4M3 -> 8;
            case NVFP4 -> 4;
            default -> throw unsupported(p);
        };
    }

    public static byte[] encode(Precision p, float[] values) {
        Objects.requireNonNull(values, "values must not be null");
        if (p == Precision.NVFP4) {
            byte[] packed = new byte[Math.ceilDiv(values.length, 2)];
            for (int i = 0; i < values.length; i++) {
                packed[i / 2] |= (byte) (E2M1.encode(values[i]) << (4 * (i % 2)));
            }
            return packed;
        }
        ByteBuffer b =
                ByteBuffer.allocate(values.length * (bitsPerElement(p) / 8)).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            switch (p) {
                case FP32, TF32 -> b.putFloat(v);
                case FP16 -> b.putShort(Float.floatToFloat16(v));
                case BF16 -> b.putShort(Bf16.encode(v));
                case FP8_E4M3, MXFP8_E4M3 -> b.put((byte) E4M3.encode(v, Overflow.SATURATE));
                case FP8_E5M2 -> b.put((byte) E5M2.encode(v, Overflow.SATURATE));
                case INT8 -> b.put((byte) Math.max(-128, Math.min(127, Math.round(v))));
                default -> throw unsupported(p);
            }
        }
        return b.array();
    }

    public static double[] decode(Precision p, byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes must not be null");
        if (p == Precision.NVFP4) {
            double[] out = new double[2 * bytes.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = E2M1.decode((bytes[i / 2] >> (4 * (i % 2))) & 0xF);
            }
            return out;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        double[] out = new double[bytes.length / (bitsPerElement(p) / 8)];
        for (int i = 0; i < out.length; i++) {
            out[i] = switch (p) {
                case FP32, TF32 -> b.getFloat();
                case FP16 -> Float.float16ToFloat(b.getShort());
                case BF16 -> Bf16.decode(b.getShort());
                case FP8_E4M3, MXFP8_E4M3 -> E4M3.decode(b.get() & 0xFF);
                case FP8_E5M2 -> E5M2.decode(b.get() & 0xFF);
                case INT8 -> b.get();
                default -> throw unsupported(p);
            };
        }
        return out;
    }

    /** INT32 outputs (INT8 products), little-endian. */
    public static double[] decodeInt32(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        double[] out = new double[bytes.length / 4];
        for (int i = 0; i < out.length; i++) {
            out[i] = b.getInt();
        }
        return out;
    }

    /**
     * Fresh random values for precision {@code p}: uniform in [-1, 1) for floats (in [-range, range) for FP8 and MXFP8, to
     * use their exponent range; in [-6, 6) for NVFP4, E2M1's range), whole numbers in [-127, 127] for INT8. Never all
     * zeros.
     */
    public static float[] random(Precision p, int count, long seed, float fp8Range) {
        Objects.requireNonNull(p, "precision must not be null");
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[count];
        for (int i = 0; i < count; i++) {
            v[i] = switch (p) {
                case INT8 -> r.nextInt(-127, 128);
                case FP8_E4M3, FP8_E5M2, MXFP8_E4M3 -> (float) ((r.nextDouble() * 2 - 1) * fp8Range);
                case NVFP4 -> (float) ((r.nextDouble() * 2 - 1) * E2M1_MAX);
                default -> (float) (r.nextDouble() * 2 - 1);
            };
        }
        return v;
    }

    private static IllegalArgumentException unsupported(Precision p) {
        return new IllegalArgumentException("no host encoding for " + p.displayName()
                + "; supported: FP32, TF32, FP16, BF16, FP8 E4M3, FP8 E5M2, INT8, NVFP4 and MXFP8 E4M3 elements");
    }
}
